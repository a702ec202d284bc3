"""Imposition: a component's faces on printer paper.

`grid` and `mixed` are pure geometry in mm (slots, bleeds, crop marks, duplex mirroring, the tokens sheet);
`imposition` draws the sheet PDFs; `options` names them (`SheetOptions`, `sheet_file_name`, `MODE_NAMES`) and
holds the print settings' defaults (`PrintChoices`) without importing ReportLab.

It may import render.faces, render.base, model and the ground floor.
"""
