"""The shipped games' engines, one package each in one shape (config, actions, state, rules, bots, checks,
and optionally stats for the balance lab and view for `pnp play`).

The framework they build on (base, registry, replay, search, simulate) lives beside this folder, in
`generator.engine`, as OpenSpiel keeps its games apart from its algorithms. A game package may import the
framework (`base`, `search`, `view`, and `simulate.balance` for its balance hook), load, the model and the
ground floor; never another game (import-linter's independence contract). The registry finds each through
its entry point in the `pirate_press.engines` group, as it finds a designer's plugin.
"""
