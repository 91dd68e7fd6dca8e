"""The bulk path of an insert: a CSV or an .xlsx sheet read, checked and written a batch of columns at a time.

The rows are the same rows, numbered the same way, checked by the same rules as the row-at-a-time
path (desktop_app/imports/pipeline.py): the vectorised checks here accept only what the row
validator accepts, with the same stored value, and every row they are not sure of goes through the
row validator itself (an Excel row with a cell whose text the validator could read otherwise goes to
it with its typed cells: excel_text.py); a batch the database refuses (a key already there) is
written again row by row. Only the cost changes: reading, checking and loading run in C++ (and Rust)
and in the databases' own loaders.
"""
