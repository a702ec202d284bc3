"""The shipped games' engines, one package each in one shape (config, actions, state, rules, bots, checks).

The framework they build on (base, registry, replay, search, simulate) lives beside this folder, in
`generator.engine`, as OpenSpiel keeps its games apart from its algorithms. A game package may import
the framework's `base` and the ground floor; nothing in the framework imports a game by name.
"""
