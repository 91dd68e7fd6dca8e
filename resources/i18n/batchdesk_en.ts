<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About BatchDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imports and exports spreadsheets as background tasks: queue a file, get a task number at once, and open the error file when rows fail.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system could not open %1. Copy its path from the field and open it yourself.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AddLoginDialog</name>
    <message>
        <source>Add a login</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An a&amp;dministrator (sees and manages every clerk&apos;s tasks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Type the password instead of a generated one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A name that owns tasks already (no login yet) gets its login: its tasks are kept. A generated password is shown once, to give to its clerk.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AddNamesQuestion</name>
    <message>
        <source>Add to the master data?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add 1 name to the master data?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1 names to the master data?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add 1 name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add %1 names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Do not add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%3 (1 new name): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%3 (%1 new names): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, … (%1 more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This completes up to 1 row of task %2 waiting on them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This completes up to %1 rows of task %2 waiting on them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The names are added to the table for everyone; undoing the import does not remove them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CancelQuestion</name>
    <message>
        <source>Cancel task %1 (%2)?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel task %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the task?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the &amp;task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It has not started yet: nothing is imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The export stops; no file is written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task stops where it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It only checks the file: nothing was imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 rows are deleted already. They stay deleted; the rest of the file&apos;s rows are not deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows are deleted already. They stay deleted; the rest of the file&apos;s rows are not deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 rows are in. They stay in the table; the rest of the file is not imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows are in. They stay in the table; the rest of the file is not imported.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChangePlanDialog</name>
    <message>
        <source>Too many rows would fail: these changes cannot be applied. Fix the file and check it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the plan…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This plan is incomplete: its dry run stopped before the end. Run the dry run again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This plan was already applied by task %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan of %1 is gone (it was discarded, or its results folder was cleaned up). Run the dry run again to see its changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan of %1 cannot be read: its file is damaged. Run the dry run again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan of %1 is kept on the desk %2, where its dry run ran: review it and apply it there. Here you can open its change file, which lists the same changes row by row.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan&apos;s rows could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queueing the import of these changes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard this plan?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the plan of dry run %1? It can no longer be applied; its change file stays as a record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard the plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarding the plan…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes of dry run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Apply the whole workbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the workbook %1 now, every sheet written only as its own plan shows it (a row changed since is listed as an error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Apply these changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the same file now; each row is written only as this plan shows it (a row changed since is listed as an error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>D&amp;iscard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throw this plan away: it can no longer be applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open the change file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the dry run&apos;s change file (every row it would insert, update or delete) in the spreadsheet application</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planned rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What dry run %1 of %2 (%3) would change. An update shows the values it changes (the old value in the tooltip); unchanged rows are counted, not listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rows: the file had nothing to import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Desk</name>
    <message>
        <source>Template saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The template could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remembered header mappings are now profiles for the team: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BatchDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping the running tasks; they continue at the next start…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DetailsPane</name>
    <message>
        <source>Task details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Details panel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no log lines)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (cancel requested)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1, retries %2 of %4, recoveries %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 processed of %2, %3 succeeded, %4 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 processed so far, %3 succeeded, %4 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 total, %2 succeeded, %3 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied by task %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarded: it can no longer be applied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applies the change plan of dry run %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped at %1 of %2 rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped after %1 rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the remaining rows to finish the file: the rows already in stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imports the remaining rows of task %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its remaining rows are imported by task %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its file replaced the file of %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows awaiting references</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repairs task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next try</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submitted by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Technical details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a task to see its details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log of this task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log of this task</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Encodings</name>
    <message>
        <source>Unicode (UTF-8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>UTF-8 with BOM (Excel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unicode (UTF-16) - Excel&apos;s &quot;Unicode text&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unicode (UTF-32)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese (GBK) - Excel on Chinese Windows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Traditional Chinese (Big5) - Taiwan, Hong Kong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Japanese (Shift-JIS)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Korean (EUC-KR)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Western (Windows-1252) - Excel on English Windows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Western (Latin-1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plain English text (ASCII)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detected from the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detected: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>(any)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;date-time&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;task number&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the export as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose what to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is after “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the file?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists. Replace it with the export?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xport:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;ncoding:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding of the CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the exported file is saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the rows with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;lear the filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the rows imported by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue the export</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FeedDialog</name>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder to watch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder to see which files match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pattern names no files (e.g. *.csv;*.xlsx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A network folder: checked when the feed runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file matches now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 file matches now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 files match now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Times of day are written HH:MM, separated by commas (e.g. 07:30,13:00)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the feed a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder to watch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the folder&apos;s whole path (e.g. D:\Imports\Bank or /home/clerk/imports), or choose it with Choose….</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no import type to choose.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit feed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a feed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import &amp;type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rows already in the table:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files to ta&amp;ke:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settle time (seconds):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;When to look:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add new rows only (a row already in the table is an error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add new, skip existing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update existing (only rows already in the table)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add new and update existing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Names to take, separated by ;, whatever their case (e.g. *.csv;*.xlsx). Hidden files, Office lock files and downloads under way are never taken.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A file is taken once its size and time stayed the same this long (a file still being copied is never taken half-written)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At these times of the day:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One file at a time, the oldest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the files in the folder (do not move them after their import)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FeedNotices</name>
    <message>
        <source>Feed %1: %2 files with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feed %1: %2 could not be imported (imported: %3, rows with errors: %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feed %1: %2 was imported with errors (imported: %3, rows with errors: %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open error file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feed %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FeedsTableModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last scan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today: imported / failed / duplicates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanning now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>when a desk runs it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Pattern: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today: %1 imported, %2 failed, %3 duplicates (not imported again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files in its folder that wait for the feed to be resumed, and files seen and not ended yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files seen and not ended yet: settling, queued or being moved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FeedsWindow</name>
    <message>
        <source>The feeds could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feeds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the feed “%1”? It stops watching %2. Its import tasks stay in the task list, and the files in its folder stay where they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove feed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 could not be opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feeds: watched folders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watch a folder: each file dropped into it is imported once, then moved to imported, failed or duplicates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look at the folder now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No feeds yet. Add one to import each file dropped into a folder.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileChoices</name>
    <message>
        <source>&amp;Sheet:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Encoding:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Separator:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dates such as %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Numbers use a decimal &amp;comma (1 234,50 or 1.234,50)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raise the size &amp;limit to %1 MB for this file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raise the ro&amp;w limit to %1 rows for this import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sheet of the workbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Separator between the fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order of day and month in the file&apos;s dates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma (,)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Semicolon (;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vertical bar (|)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detected from the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As the file&apos;s sep= line says: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detected: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose: the file does not say</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Day first: %1 is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Month first: %1 is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row %1 has the date %2, which can be read day first or month first, and the file does not show which: choose the order of its dates.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dates such as %1 are read %2, as row %3 (%4) shows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>day first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>month first</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>All tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending or running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed list (failed or partly)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show tasks with status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fi&amp;nd:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>task number, file name, stage…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed &amp;list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only failed tasks</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <source>BatchDesk help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file (or drop it on the window), check the import type and press Queue….</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The preview shows the first rows as they will be read; press Queue to start. The task number appears in the list at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The list shows each task&apos;s progress, speed and time left. You can close the window: tasks continue in the background or at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When rows fail, open the error file: each row says what is wrong. Correct the rows and re-import the error file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How it works</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImportCatalog</name>
    <message>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Department</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported by task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (every row)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Complete references</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Daily clean-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A feed&apos;s look at its folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A feed&apos;s mail about an import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workbook import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (validate only)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Showing the archived tasks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task list could not be read: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows copied: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File not found: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another file is being queued; try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BatchDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%s is in the file field: queue it when the open preview is closed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all its rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This sync would delete 1 row of %2 (scope: %3): the row the file lacks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This sync would delete %1 rows of %2 (scope: %3): the rows the file lacks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete rows?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file&apos;s rows are added or updated as well. An undo puts every deleted row back. Queue it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check &amp;first (dry run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same export is already queued as task %s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The remaining rows of this file were already imported by task %s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file is already queued as task %s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same request is already queued as task %s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued as task %s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file was already imported on %1 as task %2. Import it again?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be queued: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %s has already ended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan of %1 was discarded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1 (%2) has not finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1 has not finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Stop it now (it continues from where it stopped at the next start) or keep it running in the background?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tasks have not finished (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks are still running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Stop them now (they continue from where they stopped at the next start) or keep them running in the background?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running in the background: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks are running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop and resume later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep running in the tray</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep running (minimise)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BatchDesk — import tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happened to the selected task</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Close this message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpenFailedDialog</name>
    <message>
        <source>The path is copied: paste it into the program you want to open it with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder could not be opened either. Copy the path and open it yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer has no program that opens %1 files, so BatchDesk could not open it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system could not open this folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show in folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Outcomes</name>
    <message>
        <source>Nothing fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing completed: %1 references are still not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completed %1 of %2 references</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: no row matches the filters (a text must match the whole value)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: 1 row exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 rows exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing fixed: no row of %2 failed only for these values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing fixed: %3 rows of %2 were refused again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed values: 1 row of %2 imported, %3 refused again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed values: %1 rows of %2 imported, %3 refused again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed values: 1 row of %2 imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed values: %1 rows of %2 imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: 1 row deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 rows deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 of %2 deleted, 1 row with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 of %2 deleted, %3 rows with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1 of %2 deleted, 1 row with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1 of %2 deleted, %3 rows with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1, 1 row with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1, %3 rows with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: 1 row imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 rows imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled before any row was deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled before any row was imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: %1 of %2 deleted; they stay deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: %1 deleted; they stay deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: %1 of %2 imported; they stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: %1 imported; they stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 of %2 imported, 1 row with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: %1 of %2 imported, %3 rows with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1 of %2 imported, 1 row with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1 of %2 imported, %3 rows with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: nothing imported, 1 row with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: nothing imported, %3 rows with errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done after a fix: %1 rows imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed after %1 rows were imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row put back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows put back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row kept (changed since)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows kept (changed since)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done: nothing to undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undone by %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied by %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continued by %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) ended: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ended: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PasswordDialog</name>
    <message>
        <source>The new password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was added.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 may log in now (its tasks were kept).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its password is shown only this once: copy it and give it to its clerk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlanTableModel</name>
    <message>
        <source>A row of the table that the file lacks: the sync deletes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This row will wait until the name is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PreviewDialog</name>
    <message>
        <source>Reading the file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All its rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column for header %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(ignored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot queue: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Or tick “Raise the size limit … for this file” below to import it whole.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose how the file writes its dates (day first or month first) before queueing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot queue: about %1 rows, more than the limit of %2 rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot queue: %1 rows, more than the limit of %2 rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split the file and import the parts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split the file, or tick “Raise the row limit … for this import” below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail: hover a red cell for the reason.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail as already in the table: this mode adds new rows only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail as not in the table: this mode updates rows already in the table only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail as not in the table: there is no row to delete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will be skipped: already in the table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will update rows already in the table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will change nothing: already in the table with these values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will delete their rows from the table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cells of the one row pass every check; looking it up in the table…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cells of the first %1 rows pass every check; looking the rows up in the table…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking the rows up in the table…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The one row passes every check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first %1 rows pass every check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether they are already in the table could not be checked: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others are still deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others still import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others are still deleted, but with more than %1 of the rows failing the delete counts as failed (the rows deleted stay deleted).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others still import, but with more than %1 of the rows failing the import counts as failed (the rows that went in stay).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row names a %2 not in the table yet: it will wait until the name is added.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows name a %2 not in the table yet: they will wait until the names are added.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting the rows…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About %1 rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Va&amp;lidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the profile…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import &amp;type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rows already in the table:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Blank cells:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add new rows only (a row already in the table is an error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add new, skip existing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update existing (only rows already in the table)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add new and update existing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete rows (the file lists their keys)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the table equal to the file (sync)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep what is stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty the stored value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do with rows already in the table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a blank cell does to a row being updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows it may &amp;delete:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The column whose value picks the rows a sync may delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The value the column holds in the rows a sync may delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First rows as they will be read and checked:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headers and the columns they fill (* required):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header in the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Validate only (dry run: check every row, import nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First rows of the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This row will wait until the name is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This row has problems: hover its red cells</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already in the table: this row will be skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already in the table: this row will update it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already in the table with these values: nothing will change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the table: this row will be deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fills the column %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not used: the header “%1” already fills the column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not used: the header “%2” already fills the column %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignored: a delete reads only the key&apos;s columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignored: no column of this type</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProfileChoice</name>
    <message>
        <source>Save as profile for the team</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of the profile (an existing name gets its next version):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mapping profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as profile for the &amp;team…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save these header choices and reading options as a profile that every desk on this database can use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Using profile &apos;%1&apos; v%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as &apos;%1&apos; v%2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResumeQuestion</name>
    <message>
        <source>Import stopped early</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the remaining rows? The rows already in stay and count as imported; the rest of the file is imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the &amp;remaining rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import it all &amp;again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Do nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) was cancelled at %2 of %3 rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) was cancelled after %2 rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) stopped at %2 of %3 rows: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) stopped after %2 rows: %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RightsDialog</name>
    <message>
        <source>Rights of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What %1 may do with each import type&apos;s table. Inserting, updating or deleting includes reading; a type it may not read is not in its lists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Fill in the mail server and the sender address first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending a test mail to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A test mail was sent to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The test mail could not be sent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Team</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest &amp;file (MB):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most &amp;rows per file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep results (&amp;days):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Database URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database &amp;password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Concurrent &amp;tasks:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Batch size (rows per commit):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: the embedded database in the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic (%d)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password is kept in the system&apos;s keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password is not saved: you are asked for it when BatchDesk starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language and the limits apply at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Advanced: database and tuning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usually set up once by whoever installs BatchDesk. The database and the number of concurrent tasks take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail &amp;server:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Securit&amp;y:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail &amp;user:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mail pass&amp;word:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Se&amp;nder address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach error files up to (&amp;MB):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usual for the security</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: feeds send no mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: the server takes mail without signing in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSL/TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ma&amp;il: the server a feed&apos;s mail goes through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;end a test mail to the sender</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A feed mails its addresses when a file&apos;s import fails or has rows with errors. The mail server applies to tasks that start from now on.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>BatchDesk hit an internal error; details are in its log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BatchDesk hit an internal error; details are in the log: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password for %s:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SubmitPanel</name>
    <message>
        <source>Choose a file to import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spreadsheets (%s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a workbook to import every sheet of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Excel workbooks (%s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(from the file&apos;s header)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (cannot be used)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a template for %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F&amp;ile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose, type or drop a .csv, .xlsx or .xls file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File to import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import t&amp;ype:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Te&amp;mplate…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save an empty file with this type&apos;s columns and rules to fill in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download a template for the import type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Queue…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue the file for import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vali&amp;date only…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check every row without importing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskActions</name>
    <message>
        <source>The exported file is gone: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preparing the change file of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fetching the file of %1 from the database…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file of %1 could not be fetched from the database: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The error file is gone: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The change file of %1 is gone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder is gone: %s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This error file is unchanged since BatchDesk wrote it: its rows would fail again. Correct the cells its last columns name, save the file, then re-import it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1 has no missing names left to add.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another file is being queued; try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open exported file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the exported file in the spreadsheet application</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;error file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the rows that failed, with the reason, in the spreadsheet application</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open result &amp;folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the folder with the task&apos;s files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Re-import fixed error file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the error file after correcting its rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the task; rows already committed stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo this import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the rows this import added and put back the values it changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;try</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the failed task&apos;s file again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the re&amp;maining rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go on where this import stopped: the rows already in stay and count as imported, the rest of the file is imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import for real</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The validation passed: import the same file now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review the c&amp;hanges…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>See each row this dry run would insert, update or delete, then apply exactly those changes or discard them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look the &amp;names up again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look up again the names this import did not find (added to their table since, by you or a colleague) and fill in its rows; adds no name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add the missing names and complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the names this import did not find to their table, then fill in the references of its rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix &amp;values…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the right value for each value this import refused (a level spelt wrong, say), then import its rows that failed only for them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every field, the warnings and the log of the task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;when done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When this task ends, open its file (the exported file, or the error file if rows failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the remaining rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look the names up again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the missing names and complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review the changes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskNotices</name>
    <message>
        <source>%1, %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (it ended before the cancel could stop it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the remaining rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (see the details)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the missing names and complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review the changes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix values…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open error file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The remaining rows of %1 were already continued by %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskService</name>
    <message>
        <source>Task %1 could not be cancelled: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <source>While a task runs: rows per second, and the time left at that speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; about %1 left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · feed %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskTexts</name>
    <message>
        <source>Retry %1 of %2 at %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaced by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired: its files were deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A newer export with the same filters (task %1) replaced this file; it was deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The retention clean-up deleted this task&apos;s files.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TeamPage</name>
    <message>
        <source>administrator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clerk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, no login yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Team</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database&apos;s logins and what each may change, per import type. Changes here apply at once on the database server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Login</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add login…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 rows, %3 succeeded, %4 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UndoQuestion</name>
    <message>
        <source>Undo import %1 (%2)?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo import %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo this import?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo the import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep the rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The 1 row it added will be removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows it added will be removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The 1 row it changed gets its old values back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows it changed get their old values back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The 1 row it deleted will be put back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows it deleted will be put back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A row changed since the import (by hand or by a later import) is kept as it is and listed in the undo&apos;s error file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ValueFixDialog</name>
    <message>
        <source>Fix values of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 row of this import failed for a value its column does not allow. Choose the right value; a value left at “%2” is not changed, its row stays in the error file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows of this import failed for a value their column does not allow. Choose the right value for each; a value left at “%2” is not changed, its rows stay in the error file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value in the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change it to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change %1 to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remember for next time, in the profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save these mappings into the profile as its new version: the next import with it takes these values as the right ones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fix the rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(leave as is)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ViewOptions</name>
    <message>
        <source>No finished task to clear.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished tasks cleared from the list: %1. Nothing is deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show them again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file to import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Q&amp;ueue the file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import &amp;every sheet…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A workbook of several tables: each sheet as the import type its name or header matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export a table to a CSV or Excel file, with filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Feeds…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watched folders: each file dropped into one is imported, then moved aside</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;py rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the selected rows as text, with the column names, to paste into a spreadsheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed &amp;list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;All tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Go to the task list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;system tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also list the tasks BatchDesk queues itself: the daily clean-up and reference completions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear finished tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the tasks that have ended from the list; nothing is deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show cl&amp;eared tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List the cleared tasks again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show a&amp;rchived tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks that ended long ago, which the daily clean-up moved to the archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fi&amp;t columns to the window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BatchDesk &amp;help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About BatchDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task actions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WorkbookDialog</name>
    <message>
        <source>Validate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import every sheet: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each sheet is imported as the import type its name or header matches, one after another, a sheet whose references look up another sheet&apos;s table after that sheet. A sheet that matches no type, or several, is skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate only (commit nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (not allowed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot queue: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
