"""The one catalog of error codes, with plain-language messages in Chinese and English."""

from __future__ import annotations

import errno
from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.messages import Lang as Lang  # the catalog's; many callers import it from here
from desktop_app.domain.phrase import Phrase


class ErrorCode(StrEnum):
    """Every code a clerk or a script can see, in a task's error_code or a row of an error CSV."""

    # file-level: the task fails with no row imported
    EMPTY_FILE = "empty_file"
    MISSING_REQUIRED_COLUMN = "missing_required_column"
    ENCODING_UNDETECTABLE = "encoding_undetectable"
    UNSUPPORTED_FORMAT = "unsupported_format"
    CORRUPT_FILE = "corrupt_file"
    FILE_TOO_LARGE = "file_too_large"
    TOO_MANY_ROWS = "too_many_rows"
    FILE_NOT_FOUND = "file_not_found"
    FILE_UNREADABLE = "file_unreadable"
    FILE_CHANGED = "file_changed"
    DATA_DIR_UNUSABLE = "data_dir_unusable"
    CSV_FIELD_TOO_LONG = "csv_field_too_long"
    CSV_NUL_BYTES = "csv_nul_bytes"
    # row-level: named in the error CSV
    REQUIRED_MISSING = "required_missing"
    PATTERN_MISMATCH = "pattern_mismatch"
    ALREADY_EXISTS = "already_exists"
    DUPLICATE_IN_FILE = "duplicate_in_file"
    TOO_LONG = "too_long"
    NOT_IN_ENUM = "not_in_enum"
    INVALID_DATE = "invalid_date"
    AMBIGUOUS_DATE = "ambiguous_date"
    INVALID_NUMBER = "invalid_number"
    OUT_OF_RANGE = "out_of_range"
    COLUMN_COUNT_MISMATCH = "column_count_mismatch"
    INVALID_INTEGER = "invalid_integer"
    INVALID_BOOLEAN = "invalid_boolean"
    INVALID_CHARACTER = "invalid_character"
    MERGED_CELLS = "merged_cells"
    NOT_FOUND = "not_found"
    ROW_REJECTED = "rejected_by_database"
    # delete mode: rows of another table still refer to the row (a foreign key), so it stays
    STILL_REFERENCED = "still_referenced"
    # sync mode: a file row outside the sync's scope (--scope COLUMN=VALUE)
    OUT_OF_SCOPE = "out_of_scope"
    # undo: a row kept because it changed after the import wrote it
    CHANGED_SINCE = "changed_since"
    # undo of a delete: a row with the deleted row's key was added since, so the deleted one stays out
    TAKEN_SINCE = "taken_since"
    # the apply of a change plan: the row is not as the dry run planned it (reason: column, appeared, ...)
    CHANGED_SINCE_PLAN = "changed_since_plan"
    # engine
    ALREADY_IMPORTED = "already_imported"
    UNKNOWN_TASK_TYPE = "unknown_task_type"
    UNKNOWN_IMPORT_TYPE = "unknown_import_type"
    IMPORT_TYPE_INVALID = "import_type_invalid"
    NOT_UNDOABLE = "not_undoable"
    NOT_RESUMABLE = "not_resumable"
    # `apply TASK_NO`: a dry run's change plan that cannot be applied (reason: not_dry_run, applied, ...)
    PLAN_NOT_APPLICABLE = "plan_not_applicable"
    # references an import did not find (the task's missing_references), and adding them
    REFERENCE_NOT_FOUND = "reference_not_found"
    NOT_ADDABLE = "references_not_addable"
    WORKER_LOST = "worker_lost"
    RETRIES_EXHAUSTED = "retries_exhausted"
    DATABASE_UNAVAILABLE = "database_unavailable"
    DISK_FULL = "disk_full"
    SCHEMA_MISMATCH = "schema_mismatch"
    PERMISSION_DENIED = "permission_denied"
    DATABASE_ERROR = "database_error"
    NETWORK_SHARE = "sqlite_on_network_share"
    TASK_NOT_FOUND = "task_not_found"
    TASK_FILE_GONE = "task_file_gone"
    INVALID_PARAMS = "invalid_params"
    INTERNAL_ERROR = "internal_error"
    # who may see and manage what; the database and the settings themselves
    NOT_ADMIN = "not_admin"
    LAST_ADMIN = "last_admin"
    SCHEMA_TOO_NEW = "schema_too_new"
    BACKUP_FAILED = "backup_failed"
    INVALID_SETTING = "invalid_setting"
    SETTINGS_FILE_INVALID = "settings_file_invalid"
    # an export saved where the clerk chose
    OUTPUT_EXISTS = "output_exists"
    OUTPUT_UNUSABLE = "output_unusable"
    # mapping profiles (imports/profiles.py, store/profiles.py)
    PROFILE_NOT_FOUND = "profile_not_found"
    PROFILE_INVALID = "profile_invalid"
    PROFILE_TYPE_MISMATCH = "profile_type_mismatch"
    PROFILE_UNFIT = "profile_unfit"
    # value fixes of an ended import (imports/value_fixes.py, `values TASK_NO`)
    VALUES_NOT_FIXABLE = "values_not_fixable"
    VALUE_COLUMN_UNKNOWN = "value_column_unknown"
    VALUE_NOT_ALLOWED = "value_not_allowed"
    BAD_VALUE = "bad_value"
    # feeds (watched folders: docs/FEEDS.md)
    FEED_NOT_FOUND = "feed_not_found"
    FEED_EXISTS = "feed_exists"
    FEED_FOLDER_MISSING = "feed_folder_missing"
    FEED_PAUSED = "feed_paused"
    FEED_FILES_UNDER_WAY = "feed_files_under_way"
    FEED_NEVER_DELETES = "feed_never_deletes"
    # sync mode (imports/sync.py): its deletes confirmed by their number, a scope's column a type's column
    SYNC_CONFIRM_DELETES = "sync_confirm_deletes"
    SYNC_COUNT_CHANGED = "sync_count_changed"
    SYNC_SCOPE_INVALID = "sync_scope_invalid"
    FEED_SCANNING = "feed_scanning"
    FEED_NAME_INVALID = "feed_name_invalid"
    FEED_PATTERN_EMPTY = "feed_pattern_empty"
    FEED_MODE_INVALID = "feed_mode_invalid"
    FEED_SETTLE_INVALID = "feed_settle_invalid"
    # a feed's mail (feeds/mail.py; docs/FEEDS.md "Mail and notices")
    MAIL_ADDRESS_INVALID = "mail_address_invalid"
    MAIL_NOT_SET_UP = "mail_not_set_up"
    MAIL_NOT_SENT = "mail_not_sent"
    MAIL_REFUSED = "mail_refused"  # a refusal a retry cannot mend (reason: what was refused)
    # a workbook of several tables (`import BOOK.xlsx --all-sheets`; imports/workbook.py)
    WORKBOOK_NEEDS_BOOK = "workbook_needs_book"
    WORKBOOK_OPTIONS = "workbook_options"  # an option that does not go with --all-sheets (reason: which)
    WORKBOOK_UNKNOWN_SHEET = "workbook_unknown_sheet"
    WORKBOOK_NO_SHEET_MATCHED = "workbook_no_sheet_matched"
    WORKBOOK_SHEET_SKIPPED = "workbook_sheet_skipped"  # a sheet no type matched (reason: why)
    WORKBOOK_SHEETS_FAILED = "workbook_sheets_failed"
    # team mode: each clerk is a database login (store/team.py; docs/TEAM.md)
    TEAM_USER_REFUSED = "team_user_refused"
    TEAM_MAY_NOT = "team_may_not"
    TEAM_NOT_SECURED = "team_not_secured"


# failures of the file itself (or of what it is read as): running it again, whole (Retry) or from where it
# stopped (Import the remaining rows), fails the same way; the clerk corrects the file and imports it again
FILE_AT_FAULT = frozenset(
    {
        ErrorCode.EMPTY_FILE,
        ErrorCode.MISSING_REQUIRED_COLUMN,
        ErrorCode.ENCODING_UNDETECTABLE,
        ErrorCode.UNSUPPORTED_FORMAT,
        ErrorCode.CORRUPT_FILE,
        ErrorCode.FILE_TOO_LARGE,
        ErrorCode.TOO_MANY_ROWS,
        ErrorCode.FILE_CHANGED,
        ErrorCode.CSV_FIELD_TOO_LONG,
        ErrorCode.CSV_NUL_BYTES,
        ErrorCode.IMPORT_TYPE_INVALID,
        ErrorCode.UNKNOWN_IMPORT_TYPE,
        ErrorCode.INVALID_PARAMS,
        # the task's profile version no longer fits its type: running it again reads the same version
        ErrorCode.PROFILE_UNFIT,
        ErrorCode.PROFILE_NOT_FOUND,
    }
)


# code -> (Chinese, English). Placeholders are filled from the error's params by the one lookup
# (domain/messages.py), which decides what a missing parameter does.
MESSAGES: dict[ErrorCode, tuple[str, str]] = {
    ErrorCode.EMPTY_FILE: ("文件是空的：没有任何数据行", "The file is empty: it has no data rows"),
    ErrorCode.MISSING_REQUIRED_COLUMN: (
        "缺少必填列：{column_zh}（表头里找不到这一列）",
        "A required column is missing: {column_en} (no header names it)",
    ),
    ErrorCode.ENCODING_UNDETECTABLE: (
        "无法识别文件的字符编码，请另存为 UTF-8 编码的 CSV 后再导入",
        "The file's text encoding could not be recognised; save it as UTF-8 CSV and import again",
    ),
    ErrorCode.UNSUPPORTED_FORMAT: (
        "不支持的文件格式“{suffix}”，请使用 .csv（或 Excel 另存的 .txt 文本）、.xlsx 或 .xls 文件",
        'Unsupported file format "{suffix}"; use a .csv (or a .txt text file saved by Excel), .xlsx or .xls file',
    ),
    ErrorCode.CORRUPT_FILE: (
        "文件已损坏或不是有效的 Excel 文件，无法打开",
        "The file is damaged or not a valid Excel file and cannot be opened",
    ),
    ErrorCode.FILE_TOO_LARGE: (
        "文件太大：{size_mb} MB，上限是 {limit_mb} MB，请拆分后再导入",
        "The file is too large: {size_mb} MB, the limit is {limit_mb} MB; split it and import the parts",
    ),
    ErrorCode.TOO_MANY_ROWS: (
        "数据行太多：超过上限 {limit:,} 行，请拆分后再导入",
        "Too many data rows: more than the limit of {limit:,}; split the file and import the parts",
    ),
    ErrorCode.FILE_NOT_FOUND: ("找不到文件：{path}", "File not found: {path}"),
    ErrorCode.FILE_UNREADABLE: (
        "无法读取文件：{path}（可能正被其他程序占用）",
        "The file cannot be read: {path} (another program may be holding it)",
    ),
    ErrorCode.FILE_CHANGED: (
        "文件在提交后被修改过（{path}），为避免导入错误的数据已停止；请重新提交修改后的文件",
        "The file was changed after it was queued ({path}); stopped so the wrong data is not imported. "
        "Queue the changed file again",
    ),
    ErrorCode.DATA_DIR_UNUSABLE: (
        "无法使用数据文件夹 {path}：{detail}",
        "The data folder {path} cannot be used: {detail}",
    ),
    ErrorCode.CSV_FIELD_TOO_LONG: (
        "第 {row} 行太长：有超过 {limit} 个字符的字段或行，这不像是一份 CSV 表格，请确认文件",
        "Row {row} is too long: a field or line is longer than {limit} characters; is this really a CSV table?",
    ),
    ErrorCode.CSV_NUL_BYTES: (
        "文件含有大量空字节（NUL，约在第 {row} 行）：它真的是 CSV 文件吗？可能是损坏的文件或其他格式改了扩展名",
        "The file holds NUL bytes (near row {row}): is it really a CSV? It may be damaged, or another kind of "
        "file renamed to .csv",
    ),
    ErrorCode.REQUIRED_MISSING: ("{column}不能为空", "{column} must not be empty"),
    ErrorCode.PATTERN_MISMATCH: ("{column}格式不正确{hint}", "{column} has the wrong format{hint}"),
    ErrorCode.ALREADY_EXISTS: (
        "{column}“{value}”已存在，不能重复导入",
        '{column} "{value}" already exists and cannot be imported again',
    ),
    ErrorCode.DUPLICATE_IN_FILE: (
        "{column}“{value}”在本文件前面的行中已经出现过",
        '{column} "{value}" already appears on an earlier row of this file',
    ),
    ErrorCode.TOO_LONG: (
        "{column}太长：最多 {max} 个字符",
        "{column} is too long: at most {max} characters",
    ),
    ErrorCode.NOT_IN_ENUM: (
        "{column}“{value}”不是可选值，应为：{allowed}",
        '{column} "{value}" is not one of the allowed values: {allowed}',
    ),
    ErrorCode.INVALID_DATE: (
        "{column}“{value}”不是有效日期，应为 YYYY-MM-DD 或 YYYY/MM/DD{time}",
        '{column} "{value}" is not a valid date; use YYYY-MM-DD or YYYY/MM/DD{time}',
    ),
    ErrorCode.AMBIGUOUS_DATE: (
        "{column}“{value}”分不清日和月：可能是 {day_first}，也可能是 {month_first}；"
        "请在预览里选择日期顺序，或写成 YYYY-MM-DD",
        '{column} "{value}" could be {day_first} (day first) or {month_first} (month first): choose the date '
        "order in the preview (--date-order dmy or mdy), or write YYYY-MM-DD",
    ),
    ErrorCode.INVALID_NUMBER: (
        "{column}“{value}”不是有效数字（最多 {scale} 位小数）",
        '{column} "{value}" is not a valid number (at most {scale} decimal places)',
    ),
    ErrorCode.OUT_OF_RANGE: (
        "{column}“{value}”超出范围，应在 {min} 到 {max} 之间",
        '{column} "{value}" is out of range; it must be between {min} and {max}',
    ),
    ErrorCode.COLUMN_COUNT_MISMATCH: (
        "这一行有 {found} 列，表头有 {expected} 列（可能多了或少了逗号）",
        "This row has {found} fields but the header has {expected} (a comma too many or too few?)",
    ),
    ErrorCode.INVALID_INTEGER: (
        "{column}“{value}”不是整数（只能是数字，可带正负号）",
        '{column} "{value}" is not a whole number (digits only, with an optional sign)',
    ),
    ErrorCode.INVALID_BOOLEAN: (
        "{column}“{value}”不是是/否值，应为 是/否、真/假、Y/N、yes/no、true/false 或 1/0",
        '{column} "{value}" is not a yes/no value; use yes/no, Y/N, true/false, 1/0, 是/否 or 真/假',
    ),
    ErrorCode.INVALID_CHARACTER: (
        "{column}里有不可见的空字符（NUL），数据库无法保存；请在原文件里删除它",
        "{column} holds an invisible NUL character that the database cannot store; remove it in the file",
    ),
    ErrorCode.MERGED_CELLS: (
        "单元格 {cells} 是合并的单元格，看不出值属于哪一列；请取消合并，并在每个单元格里填上各自的值",
        "Cells {cells} are merged, so which column the value belongs to is not known; unmerge them and fill each cell",
    ),
    ErrorCode.NOT_FOUND: (
        "{column}“{value}”在表中不存在，无法更新（要新增请选择“新增并更新”）",
        '{column} "{value}" is not in the table, so it cannot be updated (to add it, choose "Add new and update '
        'existing")',
    ),
    ErrorCode.ROW_REJECTED: ("数据库拒绝保存这一行：{detail}", "The database refused this row: {detail}"),
    ErrorCode.STILL_REFERENCED: (
        "{column}“{value}”仍被表 {table} 的 {columns} 列引用，无法删除；请先处理引用它的行",
        '{column} "{value}" is still referred to by table {table} (column {columns}), so it cannot be deleted; '
        "deal with the rows that refer to it first",
    ),
    ErrorCode.OUT_OF_SCOPE: (
        "这一行的{column}是“{value}”，不在这次同步的范围（{scope}）内；范围之外的行不会写入",
        "This row's {column} is \"{value}\", outside the sync's scope ({scope}); rows outside it are not written",
    ),
    ErrorCode.TAKEN_SINCE: (
        "删除之后表中又加入了同一键的一行，为免覆盖它，被删除的行没有放回",
        "A row with this key was added after the delete; the deleted row was not put back so that row is not lost",
    ),
    ErrorCode.CHANGED_SINCE: (
        "这一行在导入后又被修改过（{changed}），为免覆盖他人的修改已保留原样",
        "This row was changed after the import ({changed}); it was kept so that change is not lost",
    ),
    ErrorCode.ALREADY_IMPORTED: (
        "这个文件已于 {date} 导入过（任务 {task_no}）；如确需再次导入，请选择“仍然导入”（--force）",
        "This file was already imported on {date} as task {task_no}; to import it again, confirm (--force)",
    ),
    ErrorCode.UNKNOWN_TASK_TYPE: ("未知的任务类型：{task_type}", "Unknown task type: {task_type}"),
    ErrorCode.UNKNOWN_IMPORT_TYPE: (
        "未知的导入类型：{import_type}（可用：{available}）",
        "Unknown import type: {import_type} (available: {available})",
    ),
    ErrorCode.IMPORT_TYPE_INVALID: (
        "导入类型“{import_type}”有问题，无法使用：{problem}",
        'The import type "{import_type}" has a problem and cannot be used: {problem}',
    ),
    ErrorCode.NOT_UNDOABLE: ("任务 {task_no} 不能撤销：{reason}", "Task {task_no} cannot be undone: {reason}"),
    ErrorCode.NOT_RESUMABLE: ("任务 {task_no} 不能继续导入", "Task {task_no} cannot be resumed"),
    ErrorCode.PLAN_NOT_APPLICABLE: (
        "任务 {task_no} 的变更计划不能执行", "The change plan of task {task_no} cannot be applied"
    ),
    ErrorCode.CHANGED_SINCE_PLAN: (
        "这一行在生成变更计划后已有变化，没有写入；请重新仅校验",
        "This row changed since the plan; it was not written: run a new dry run",
    ),
    ErrorCode.REFERENCE_NOT_FOUND: ("找不到{column}：{value}", "{column} not found: {value}"),
    ErrorCode.NOT_ADDABLE: (
        "{column_zh}的名称不能在这里添加到 {table}：导入类型没有为这一列声明 allow_add = true；"
        "请在 {table} 中添加后再补全",
        "The names of {column_en} cannot be added to {table} from here: the import type does not declare "
        "allow_add = true for that column; add them to {table} yourself, then complete the references",
    ),
    ErrorCode.WORKER_LOST: (
        "执行这个任务的程序已中断 {count} 次（可能是崩溃或断电），已停止重试",
        "The program running this task stopped {count} times (a crash or power loss?); no more retries",
    ),
    ErrorCode.RETRIES_EXHAUSTED: (
        "已重试 {count} 次仍然失败，最后一次的原因：{reason}",
        "Still failing after {count} retries; the last reason: {reason}",
    ),
    ErrorCode.DATABASE_UNAVAILABLE: (
        "无法连接数据库：{detail}",
        "The database cannot be reached: {detail}",
    ),
    ErrorCode.DISK_FULL: (
        "保存 BatchDesk 数据的磁盘已满：请腾出空间后重试（{detail}）",
        "The disk holding BatchDesk's data is full: free some space and retry ({detail})",
    ),
    ErrorCode.SCHEMA_MISMATCH: (
        "数据库里的表与导入类型不一致（缺少表或列）：{detail}",
        "The database's tables do not match the import type (a table or column is missing): {detail}",
    ),
    ErrorCode.PERMISSION_DENIED: (
        "数据库不允许这个账号做这项操作：{detail}",
        "The database does not allow this account to do that: {detail}",
    ),
    ErrorCode.DATABASE_ERROR: (
        "数据库拒绝了这项操作，重试也无济于事：{detail}",
        "The database refused the work, and a retry would not help: {detail}",
    ),
    ErrorCode.NETWORK_SHARE: (
        "数据文件在网络共享盘上（{path}），内置数据库不能放在网络盘；"
        "请选择本机文件夹，或改用共享的 PostgreSQL/MySQL 数据库",
        "The data folder is on a network share ({path}); the embedded database cannot live there. "
        "Choose a local folder, or use a shared PostgreSQL/MySQL database",
    ),
    ErrorCode.TASK_NOT_FOUND: ("找不到任务 {task_no}", "No task {task_no}"),
    ErrorCode.TASK_FILE_GONE: (
        "任务 {task_no} 没有{what_zh}：已过期，或任务没有写出",
        "Task {task_no} has no {what_en}: it expired, or the task wrote none",
    ),
    ErrorCode.VALUES_NOT_FIXABLE: (
        "任务 {task_no} 的值不能修正：{reason}",
        "Task {task_no}'s values cannot be fixed: {reason}",
    ),
    ErrorCode.VALUE_COLUMN_UNKNOWN: (
        "导入类型 {import_type} 没有可选值的列“{column}”；可修正的列：{columns}",
        'The import type {import_type} has no column "{column}" with allowed values; columns: {columns}',
    ),
    ErrorCode.VALUE_NOT_ALLOWED: (
        "{column_zh}不能改为“{value}”：允许的值为 {allowed}",
        '{column_en} cannot become "{value}": the allowed values are {allowed}',
    ),
    ErrorCode.BAD_VALUE: (
        "{column}：{value}（{rows:,} 行），允许的值：{allowed}",
        "{column}: {value} ({rows:,} {rows:plural:row|rows}), allowed: {allowed}",
    ),
    ErrorCode.FEED_NOT_FOUND: ("没有名为“{name}”的监视文件夹", "There is no feed named {name}"),
    ErrorCode.FEED_EXISTS: ("已经有名为“{name}”的监视文件夹了", "A feed named {name} exists already"),
    ErrorCode.FEED_PAUSED: (
        "监视文件夹“{name}”已暂停；请先恢复（batchdesk feed resume {name}）",
        "The feed {name} is paused; resume it first (batchdesk feed resume {name})",
    ),
    ErrorCode.FEED_FILES_UNDER_WAY: (
        "监视文件夹“{name}”还有 {count:,} 个文件的导入未结束；等它们结束后再更改文件夹",
        "The feed {name} has {count:,} {count:plural:file|files} whose import has not ended; change its folder "
        "once {count:plural:it has|they have} ended",
    ),
    ErrorCode.FEED_NEVER_DELETES: (
        "映射配置“{profile}”的方式是删除行；监视文件夹从不删除行，请换一个映射配置或改掉它的方式",
        "The profile {profile} deletes rows; a feed never deletes rows: choose another profile or change its mode",
    ),
    ErrorCode.SYNC_CONFIRM_DELETES: (
        "这次同步将删除表 {table} 的 {count:,} 行；确认无误请加上 --confirm-deletes {confirm}",
        "This would delete {count:,} {count:plural:row|rows} of {table}; add --confirm-deletes {confirm} to go ahead",
    ),
    ErrorCode.SYNC_COUNT_CHANGED: (
        "同步确认的是删除 {confirmed:,} 行，但表 {table} 现在会删除 {found:,} 行（确认之后表被改过）；什么都没有写入，"
        "请重新查看后再确认",
        "The sync was confirmed to delete {confirmed:,} {confirmed:plural:row|rows}, but {table} would now lose "
        "{found:,} (it changed since); nothing was written: look again and confirm the new number",
    ),
    ErrorCode.SYNC_SCOPE_INVALID: (
        "同步范围“{scope}”不对：应写成 列=值，列须是导入类型的列（{columns}）",
        "The sync's scope \"{scope}\" is not right: write COLUMN=VALUE, COLUMN one of the type's columns ({columns})",
    ),
    ErrorCode.FEED_SCANNING: (
        "监视文件夹“{name}”正在查看它的文件夹；等这次查看结束（通常只要几秒钟）后再更改文件夹",
        "The feed {name} is looking at its folder right now; change its folder once that look has ended "
        "(usually a few seconds)",
    ),
    ErrorCode.FEED_NAME_INVALID: (
        "监视文件夹的名称应为 1 到 100 个字符，写在一行里",
        "A feed's name is 1 to 100 characters on one line",
    ),
    ErrorCode.FEED_PATTERN_EMPTY: (
        "文件名规则没有指定任何文件（例如 *.csv;*.xlsx）",
        "The pattern names no files (e.g. *.csv;*.xlsx)",
    ),
    ErrorCode.FEED_MODE_INVALID: (
        "监视文件夹的导入方式只能是新增行、跳过已有的行、更新已有的行或新增并更新，从不删除行",
        "A feed's mode is one of insert, insert_new, update and upsert (a feed never deletes rows)",
    ),
    ErrorCode.FEED_SETTLE_INVALID: (
        "稳定时间应为 0 秒或更长",
        "The settle time is 0 seconds or more",
    ),
    ErrorCode.FEED_FOLDER_MISSING: (
        "找不到文件夹 {folder}（它必须已经存在）",
        "The folder {folder} does not exist (it must exist already)",
    ),
    ErrorCode.MAIL_ADDRESS_INVALID: (
        "“{address}”不是有效的邮件地址（应由用户名、@ 和域名组成）",
        '"{address}" is not a valid mail address (it should look like name@example.com)',
    ),
    ErrorCode.MAIL_NOT_SET_UP: (
        "还没有设置发信的邮件服务器和发件人地址（在“设置”里填写）",
        "No mail server and sender address are set up yet (fill them in under Settings)",
    ),
    ErrorCode.MAIL_NOT_SENT: (
        "邮件没能通过邮件服务器 {server} 发出：{detail}；稍后会再试",
        "The mail could not be sent through the mail server {server}: {detail}; it is tried again later",
    ),
    ErrorCode.TEAM_USER_REFUSED: (
        "团队模式下您就是数据库账号“{login}”；不使用 --user 参数",
        "In team mode you are the database login '{login}'; --user is not used",
    ),
    ErrorCode.TEAM_MAY_NOT: (
        "您不能更改 {name}：请管理员授予{rights_zh}的权限",
        "You may not change {name}: ask an administrator for the right to {rights_en}",
    ),
    ErrorCode.TEAM_NOT_SECURED: (
        "这个数据库还没有启用团队模式（每位职员一个数据库账号）：请数据库管理员先运行 batchdesk admin secure",
        "This database is not in team mode (a database login for each clerk) yet: its DBA runs "
        "batchdesk admin secure first",
    ),
    ErrorCode.MAIL_REFUSED: (
        "邮件服务器 {server} 拒绝了这封邮件（它的回答：{detail}）；重试也不会成功",
        "The mail server {server} refused this mail (its answer: {detail}); trying again would not help",
    ),
    ErrorCode.INVALID_PARAMS: ("任务参数不正确：{detail}", "Invalid task parameters: {detail}"),
    ErrorCode.WORKBOOK_NEEDS_BOOK: (
        "只有 Excel 工作簿（.xlsx 或 .xls）可以按工作表全部导入；{file} 不是工作簿",
        "Importing every sheet needs an Excel workbook (.xlsx or .xls); {file} is not one",
    ),
    ErrorCode.WORKBOOK_OPTIONS: (
        "按工作表全部导入时不能同时使用这个选项",
        "This option does not go with --all-sheets",
    ),
    ErrorCode.WORKBOOK_UNKNOWN_SHEET: (
        "工作簿 {file} 中没有名为“{sheet}”的工作表（它有：{sheets}）",
        'The workbook {file} has no sheet named "{sheet}" (it has: {sheets})',
    ),
    ErrorCode.WORKBOOK_NO_SHEET_MATCHED: (
        "工作簿 {file} 中没有一个工作表对应到导入类型（工作表：{sheets}），什么都没有排队；"
        "请按导入类型的名称命名工作表，或逐个指定工作表的导入类型",
        "No sheet of the workbook {file} matches an import type (sheets: {sheets}); nothing was queued. "
        "Name each sheet after its import type, or give it with --sheet-type SHEET=TYPE",
    ),
    ErrorCode.WORKBOOK_SHEET_SKIPPED: (
        "工作表“{sheet}”已跳过",
        'Sheet "{sheet}" skipped',
    ),
    ErrorCode.WORKBOOK_SHEETS_FAILED: (
        "{count} 个工作表的导入失败：{sheets}",
        "The import of {count} {count:plural:sheet|sheets} failed: {sheets}",
    ),
    ErrorCode.INTERNAL_ERROR: (
        "程序内部错误（已记录到日志）：{detail}",
        "Internal error (written to the log): {detail}",
    ),
    ErrorCode.NOT_ADMIN: (
        "只有管理员才能查看或管理其他用户的任务、更改管理员名单；{user} 不是这个数据库的管理员",
        "Only an administrator can see or manage other users' tasks and change the administrators; "
        "{user} is not an administrator of this database",
    ),
    ErrorCode.LAST_ADMIN: (
        "{user} 是最后一位管理员，不能移除；请先添加另一位管理员",
        "{user} is the last administrator and cannot be removed; add another one first",
    ),
    ErrorCode.SCHEMA_TOO_NEW: (
        "这个数据库已被更新版本的 BatchDesk 升级（数据库结构版本 {found}，本程序只认识到 {known}）；"
        "请先把本机的 BatchDesk 更新到最新版本",
        "This database was updated by a newer BatchDesk (schema version {found}; this version knows up "
        "to {known}). Update BatchDesk on this desk first",
    ),
    ErrorCode.BACKUP_FAILED: (
        "升级数据库结构前无法备份数据库文件（{path}：{detail}），数据库未作任何改动；请腾出磁盘空间后重新启动",
        "The database file could not be backed up before updating its schema ({path}: {detail}); "
        "nothing was changed. Free some disk space and start again",
    ),
    ErrorCode.INVALID_SETTING: (
        "设置文件中的 {name} 值 {value} 无效（应为{expected}），已改用默认值 {default}",
        "The setting {name} = {value} in the settings file is not valid ({expected} expected); "
        "using the default {default}",
    ),
    ErrorCode.OUTPUT_EXISTS: (
        "文件 {path} 已存在：请另选文件名，或确认替换它",
        "The file {path} already exists: choose another name, or confirm replacing it",
    ),
    ErrorCode.OUTPUT_UNUSABLE: (
        "无法把导出的文件保存到 {path}：{detail}",
        "The exported file cannot be saved to {path}: {detail}",
    ),
    ErrorCode.SETTINGS_FILE_INVALID: (
        "设置文件 {path} 不是有效的 JSON（第 {line} 行第 {column} 列），所有设置已改用默认值；"
        "在“设置”中保存后会重写这个文件",
        "The settings file {path} is not valid JSON (line {line}, column {column}); every setting uses its "
        "default until the settings are saved, which rewrites the file",
    ),
    ErrorCode.PROFILE_NOT_FOUND: ("找不到映射配置“{name}”", 'No mapping profile "{name}"'),
    ErrorCode.PROFILE_INVALID: (
        "映射配置文件 {path} 有误：{key}",
        "The profile file {path} is not valid: {key}",
    ),
    ErrorCode.PROFILE_TYPE_MISMATCH: (
        "映射配置“{name}”属于导入类型 {profile_type}，不能用于 {import_type}",
        'The mapping profile "{name}" is for the import type {profile_type}, not {import_type}',
    ),
    ErrorCode.PROFILE_UNFIT: (
        "映射配置“{name}”第 {version} 版与导入类型 {import_type} 不再相符：列 {column}",
        'The mapping profile "{name}" version {version} no longer fits the import type {import_type}: column {column}',
    ),
}


# A file-level error can say more precisely what is wrong than its code's message: such an error
# carries reason=<one of these keys> and the message below replaces the code's own, so a CSV never
# hears Excel words and a zip bomb names the part that was too big. The code stays what scripts see.
REASONS: dict[tuple[ErrorCode, str], tuple[str, str]] = {
    # `apply TASK_NO` refused (submission.Submitter.submit_apply): nothing queued, nothing written
    (ErrorCode.PLAN_NOT_APPLICABLE, "not_dry_run"): (
        "任务 {task_no} 不是仅校验的导入，没有可执行的变更计划",
        "Task {task_no} is not a dry run (validate-only import): it has no change plan to apply",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "not_succeeded"): (
        "仅校验任务 {task_no} 没有成功结束，它的变更计划不能执行；请重新仅校验",
        "The dry run {task_no} did not succeed, so its change plan cannot be applied: run a new dry run",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "plan_gone"): (
        "仅校验任务 {task_no} 的变更计划文件已不存在（{path}）；请重新仅校验",
        "The change plan of the dry run {task_no} is gone ({path}): run a new dry run",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "plan_elsewhere"): (
        "仅校验任务 {task_no} 的变更计划保存在运行它的电脑 {host} 上：请在那台电脑上审阅并执行"
        "（这里可以打开它的变更文件）",
        "The change plan of the dry run {task_no} is kept on the desk {host}, where it ran: review and apply it "
        "there (here you can open its change file)",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "applied"): (
        "{task_no} 已经由 {by} 执行过", "{task_no} was already applied by {by}",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "discarded"): (
        "仅校验任务 {task_no} 的变更计划已放弃；请重新仅校验",
        "The change plan of the dry run {task_no} was discarded: run a new dry run",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "file_changed"): (
        "文件 {path} 在仅校验 {task_no} 之后被修改过：请重新仅校验",
        "The file {path} changed since its dry run {task_no}: run a new dry run",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "workbook_sheet"): (
        "仅校验任务 {task_no} 是工作簿 {parent} 中的一个工作表：请执行整个工作簿 {parent} 的变更计划",
        "The dry run {task_no} is a sheet of the workbook {parent}: apply the workbook {parent}, every sheet together",
    ),
    (ErrorCode.PLAN_NOT_APPLICABLE, "file_gone"): (
        "找不到仅校验 {task_no} 的文件：{path}", "The file of the dry run {task_no} is gone: {path}",
    ),
    # a row of an apply that is not as its plan has it (the plan is a dry run's: imports/change_plan.py)
    (ErrorCode.CHANGED_SINCE_PLAN, "column"): (
        "{column}在变更计划中是 {planned}，现在是 {found}；这一行没有写入",
        "Column {column} was {planned} in the plan, is now {found}; the row was not written",
    ),
    (ErrorCode.CHANGED_SINCE_PLAN, "appeared"): (
        "{column}“{value}”在生成变更计划后被加入了表中；这一行没有写入",
        '{column} "{value}" was added to the table since the plan; the row was not written',
    ),
    (ErrorCode.CHANGED_SINCE_PLAN, "disappeared"): (
        "{column}“{value}”在生成变更计划后已不在表中；这一行没有写入",
        '{column} "{value}" is no longer in the table since the plan; the row was not written',
    ),
    (ErrorCode.CHANGED_SINCE_PLAN, "was_failed"): (
        "这一行在变更计划中是失败的，现在却会被写入；没有写入，请重新仅校验",
        "This row failed in the plan and would now be written; it was not written: run a new dry run",
    ),
    (ErrorCode.CHANGED_SINCE_PLAN, "not_planned"): (
        "{column}“{value}”不在变更计划要删除的行里（生成计划后才加入表中），已保留",
        '{column} "{value}" is not among the plan\'s deletes (it was added to the table since the plan): it stays',
    ),
    (ErrorCode.OUTPUT_UNUSABLE, "no_folder"): (
        "无法把导出的文件保存到 {path}：文件夹不存在",
        "The exported file cannot be saved to {path}: its folder does not exist",
    ),
    (ErrorCode.OUTPUT_UNUSABLE, "is_folder"): (
        "无法把导出的文件保存到 {path}：这是一个文件夹，请写上文件名",
        "The exported file cannot be saved to {path}: it is a folder; give a file name",
    ),
    (ErrorCode.SETTINGS_FILE_INVALID, "unreadable"): (
        "无法读取设置文件 {path}（{detail}），所有设置已改用默认值；在“设置”中保存后会重写这个文件",
        "The settings file {path} cannot be read ({detail}); every setting uses its default until the "
        "settings are saved, which rewrites the file",
    ),
    # a mail the server refused for good (feeds/mail.py): what it refused, in words; its answer as it gave it
    (ErrorCode.MAIL_REFUSED, "recipients"): (
        "邮件服务器 {server} 不接受这封邮件的任何一个收件人（它的回答：{detail}）；请检查收件人地址，重试也不会成功",
        "The mail server {server} accepted none of the mail's recipients (its answer: {detail}); check the "
        "addresses: trying again would not help",
    ),
    (ErrorCode.MAIL_REFUSED, "sender"): (
        "邮件服务器 {server} 不接受发件人地址（它的回答：{detail}）；请在“设置”中检查发件人地址，重试也不会成功",
        "The mail server {server} does not accept the sender address (its answer: {detail}); check it under "
        "Settings: trying again would not help",
    ),
    (ErrorCode.MAIL_REFUSED, "too_large"): (
        "邮件服务器 {server} 认为这封邮件太大，拒绝了它（它的回答：{detail}）；请在“设置”中调低附件上限，"
        "重试也不会成功",
        "The mail server {server} refused the mail as too large (its answer: {detail}); lower the attachment "
        "limit under Settings: trying again would not help",
    ),
    (ErrorCode.MAIL_REFUSED, "not_supported"): (
        "邮件服务器 {server} 不支持发出这封邮件所需的功能（例如含中文的邮件地址，或加密连接）：{detail}；"
        "重试也不会成功",
        "The mail server {server} does not offer what this mail needs (such as addresses with characters "
        "beyond plain letters, or the chosen security): {detail}; trying again would not help",
    ),
    (ErrorCode.MAIL_REFUSED, "certificate"): (
        "无法确认邮件服务器 {server} 的证书（{detail}）；请在“设置”中检查服务器名称和加密方式，重试也不会成功",
        "The certificate of the mail server {server} could not be verified ({detail}); check the server's "
        "name and security under Settings: trying again would not help",
    ),
    (ErrorCode.MAIL_REFUSED, "login_not_ascii"): (
        "邮件服务器 {server} 的登录用户名或密码中有它无法接受的字符（只能是英文字母、数字和符号）；"
        "请在“设置”中检查，重试也不会成功",
        "The user name or password for the mail server {server} has characters its sign-in cannot take "
        "(only plain letters, digits and signs); check them under Settings: trying again would not help",
    ),
    (ErrorCode.MAIL_REFUSED, "not_ascii"): (
        "邮件设置中有邮件服务器 {server} 无法接受的字符（{detail}）；请在“设置”中检查服务器名称、用户名和密码，"
        "重试也不会成功",
        "The mail settings have characters the mail server {server} cannot take ({detail}); check the "
        "server's name, the user and the password under Settings: trying again would not help",
    ),
    (ErrorCode.CORRUPT_FILE, "csv_unclosed_quote"): (
        '第 {row} 行开始的引号没有闭合，之后的内容都被读成了同一个字段；请检查这一行的引号（"）',
        "An unclosed quote starting at row {row} swallows the rest of the file into one field; "
        'check the quotes (") on that row',
    ),
    (ErrorCode.CORRUPT_FILE, "csv_malformed"): (
        "CSV 文件在第 {row} 行无法解析（{detail}）",
        "The CSV file cannot be parsed at row {row} ({detail})",
    ),
    (ErrorCode.CORRUPT_FILE, "cell_too_long"): (
        "文件已损坏或不是有效的 Excel 文件：第 {row} 行有一个单元格超过 {limit} 个字符",
        "The file is damaged or not a valid Excel file: a cell in row {row} holds more than {limit} characters",
    ),
    (ErrorCode.CORRUPT_FILE, "shared_string_too_long"): (
        "文件已损坏或不是有效的 Excel 文件：共享字符串表里有一段文字超过 {limit:,} 个字符",
        "The file is damaged or not a valid Excel file: a text in its shared string table holds more than "
        "{limit:,} characters",
    ),
    (ErrorCode.CORRUPT_FILE, "too_many_columns"): (
        "文件已损坏或不是有效的 Excel 文件：第 {row:,} 行的单元格超过 {limit:,} 列",
        "The file is damaged or not a valid Excel file: row {row:,} has cells beyond column {limit:,}",
    ),
    (ErrorCode.CORRUPT_FILE, "too_many_rows"): (
        "文件已损坏或不是有效的 Excel 文件：工作表的行号超过了 {limit:,}（Excel 的最后一行）",
        "The file is damaged or not a valid Excel file: the sheet has rows beyond row {limit:,}, Excel's last",
    ),
    (ErrorCode.CORRUPT_FILE, "too_many_strings"): (
        "文件已损坏或不是有效的 Excel 文件：共享字符串表里有超过 {limit:,} 个字符串",
        "The file is damaged or not a valid Excel file: its shared string table holds more than {limit:,} strings",
    ),
    (ErrorCode.CORRUPT_FILE, "too_many_parts"): (
        "文件已损坏或不是有效的 Excel 文件：压缩包目录超过 {limit} KB，远多于一个工作簿应有的部件",
        "The file is damaged or not a valid Excel file: its zip directory is over {limit} KB, far more parts "
        "than a workbook has",
    ),
    (ErrorCode.CORRUPT_FILE, "xls_records_broken"): (
        "文件已损坏：工作表“{sheet}”的记录在第 {offset} 字节处断开，后面的行无法读取",
        'The file is damaged: the records of sheet "{sheet}" break off at byte {offset}; the rows after '
        "that cannot be read",
    ),
    (ErrorCode.CORRUPT_FILE, "xls_rows_mismatch"): (
        "文件已损坏：工作表“{sheet}”声明到第 {declared} 行，实际只能读到第 {found} 行",
        'The file is damaged: sheet "{sheet}" says it runs to row {declared}, but only rows up to {found} can be read',
    ),
    (ErrorCode.CORRUPT_FILE, "xls_cell_outside"): (
        "文件已损坏：工作表“{sheet}”的单元格 {cell} 位于它声明的范围之外或重复出现",
        'The file is damaged: cell {cell} of sheet "{sheet}" lies outside the area the sheet declares, '
        "or appears twice",
    ),
    (ErrorCode.FILE_TOO_LARGE, "xlsx_part"): (
        "文件解压后太大：其中的 {part} 解压后有 {size_mb} MB，上限是 {limit_mb} MB（按“文件大小上限”推算）",
        "The file is too large unpacked: its part {part} unpacks to {size_mb} MB, the limit is {limit_mb} MB "
        '(derived from the "largest file" setting)',  # the window has no --max-file-mb: name the setting
    ),
    (ErrorCode.FILE_TOO_LARGE, "merged_cells"): (
        "工作表里合并的单元格区域超过 {limit} 处：请取消合并，或拆分后再导入",
        "The sheet has more than {limit} blocks of merged cells: unmerge them, or split the file and import the parts",
    ),
    (ErrorCode.FILE_TOO_LARGE, "xls_area"): (
        "文件太大：工作表“{sheet}”占 {rows} 行 × {columns} 列，超过一次能读入的 {limit} 个单元格，请拆分后再导入",
        'The file is too large: sheet "{sheet}" spans {rows} rows x {columns} columns, more than the '
        "{limit} cells that can be read at once; split it and import the parts",
    ),
    # a file whose last import stopped early: the refusal names the way to finish it
    (ErrorCode.ALREADY_IMPORTED, "cancelled"): (
        "这个文件的导入（任务 {task_no}）已在 {done} / {total} 行时取消；要导入其余的行，请运行 "
        "batchdesk resume {task_no}（如确需整个重新导入：--force）",
        "This file's import (task {task_no}) was cancelled at {done} of {total} rows; to import the remaining "
        "rows, run: batchdesk resume {task_no} (to import it all again: --force)",
    ),
    (ErrorCode.ALREADY_IMPORTED, "failed"): (
        "这个文件的导入（任务 {task_no}）在 {done} / {total} 行时中断（{why}）；要导入其余的行，请运行 "
        "batchdesk resume {task_no}（如确需整个重新导入：--force）",
        "This file's import (task {task_no}) stopped at {done} of {total} rows ({why}); to import the "
        "remaining rows, run: batchdesk resume {task_no} (to import it all again: --force)",
    ),
    (ErrorCode.NOT_ADDABLE, "refused"): (
        "无法把新名称添加到 {table}：数据库拒绝了（{detail}）；什么都没有添加，也没有补全",
        "The new names could not be added to {table}: the database refused them ({detail}); nothing was "
        "added or completed",
    ),
    # delete mode: a key not in the table (the code is the update's; the words say delete)
    (ErrorCode.NOT_FOUND, "delete"): (
        "{column}“{value}”在表中不存在，无法删除",
        '{column} "{value}" is not in the table, so it cannot be deleted',
    ),
    # a reference name not found, with its rows (the summary's missing_references)
    (ErrorCode.REFERENCE_NOT_FOUND, "one"): (
        "找不到{column}：{value}（{rows} 行）",
        "{column} not found: {value} ({rows} row)",
    ),
    (ErrorCode.REFERENCE_NOT_FOUND, "many"): (
        "找不到{column}：{value}（{rows} 行）",
        "{column} not found: {value} ({rows} rows)",
    ),
    # a day/month date that is a date only in the order not declared (--date-order, the preview's choice)
    (ErrorCode.INVALID_DATE, "not_mdy"): (
        "{column}“{value}”按声明的“月/日/年”顺序不是有效日期；按“日/月/年”读则是 {other}；请核对所选的日期顺序",
        '{column} "{value}" is not a date in month/day/year order (as declared); read as day/month/year it '
        "would be {other}: check the date order chosen (--date-order)",
    ),
    (ErrorCode.INVALID_DATE, "not_dmy"): (
        "{column}“{value}”按声明的“日/月/年”顺序不是有效日期；按“月/日/年”读则是 {other}；请核对所选的日期顺序",
        '{column} "{value}" is not a date in day/month/year order (as declared); read as month/day/year it '
        "would be {other}: check the date order chosen (--date-order)",
    ),
    # why a task cannot be undone (imports/undo.py undo_problem): reason codes, so that the Chinese
    # message carries no English; a task stored before them keeps its reason's words ({reason} above)
    (ErrorCode.VALUES_NOT_FIXABLE, "dry_run"): (
        "任务 {task_no} 是试导入，没有写入任何行",
        "Task {task_no} was a dry run: it wrote no rows",
    ),
    (ErrorCode.VALUES_NOT_FIXABLE, "undone"): (
        "任务 {task_no} 已被撤销",
        "Task {task_no} has been undone",
    ),
    (ErrorCode.VALUES_NOT_FIXABLE, "not_finished"): (
        "任务 {task_no} 还没有结束",
        "Task {task_no} has not ended yet",
    ),
    (ErrorCode.VALUES_NOT_FIXABLE, "no_error_rows"): (
        "任务 {task_no} 没有失败的行（或其错误文件已不在）",
        "Task {task_no} has no failed rows (or its error file is gone)",
    ),
    (ErrorCode.SYNC_CONFIRM_DELETES, "scoped"): (
        "这次同步将删除表 {table} 的 {count:,} 行（范围：{scope}）；确认无误请加上 --confirm-deletes {confirm}",
        "This would delete {count:,} {count:plural:row|rows} of {table} (scope: {scope}); add --confirm-deletes "
        "{confirm} to go ahead",
    ),
    (ErrorCode.NOT_UNDOABLE, "undo_itself"): (
        "任务 {task_no} 不能撤销：它本身就是一次撤销",
        "Task {task_no} cannot be undone: it is an undo itself",
    ),
    (ErrorCode.NOT_UNDOABLE, "not_import"): (
        "任务 {task_no} 不能撤销：只有导入任务可以撤销",
        "Task {task_no} cannot be undone: only an import can be undone",
    ),
    (ErrorCode.NOT_UNDOABLE, "not_finished"): (
        "任务 {task_no} 不能撤销：它还没有结束",
        "Task {task_no} cannot be undone: it has not finished yet",
    ),
    (ErrorCode.NOT_UNDOABLE, "nothing_left"): (
        "任务 {task_no} 不能撤销：它的每个工作表都已撤销，或正在撤销",
        "Task {task_no} cannot be undone: each of its sheets was undone already, or is being undone",
    ),
    # what does not go with --all-sheets (a workbook's sheets each have their own type and sheet)
    (ErrorCode.WORKBOOK_OPTIONS, "sheet"): (
        "按工作表全部导入时不能再指定单个工作表；要只导入一个工作表，请去掉全部导入的选项",
        "--all-sheets imports every sheet: leave out --sheet (or import the one sheet without --all-sheets)",
    ),
    (ErrorCode.WORKBOOK_OPTIONS, "type"): (
        "按工作表全部导入时，每个工作表的导入类型由工作表名称或表头决定，也可以逐个指定；不能给整个文件指定一个类型",
        "--all-sheets finds each sheet's type by its name or its header (or --sheet-type SHEET=TYPE); leave out "
        "--type",
    ),
    (ErrorCode.WORKBOOK_OPTIONS, "profile"): (
        "映射配置属于一个导入类型，不能用于按工作表全部导入",
        "A mapping profile belongs to one import type: it does not go with --all-sheets",
    ),
    (ErrorCode.WORKBOOK_OPTIONS, "sync"): (
        "同步模式要逐个确认删除的行数，不能用于按工作表全部导入；请逐个工作表同步",
        "--mode sync confirms its deletes one table at a time: sync each sheet on its own (--sheet)",
    ),
    (ErrorCode.WORKBOOK_OPTIONS, "repairs"): (
        "修正后的错误文件不是工作簿，不能按工作表全部导入",
        "A fixed error file is not a workbook: --repairs does not go with --all-sheets",
    ),
    (ErrorCode.WORKBOOK_OPTIONS, "sheet_twice"): (
        "工作表“{sheet}”被指定了两次导入类型",
        'The sheet "{sheet}" is given a type twice (--sheet-type)',
    ),
    (ErrorCode.WORKBOOK_OPTIONS, "sheet_type_alone"): (
        "指定工作表的导入类型只用于按工作表全部导入",
        "--sheet-type goes with --all-sheets",
    ),
    # why a sheet of a workbook was skipped (never guessed)
    (ErrorCode.WORKBOOK_SHEET_SKIPPED, "no_match"): (
        "工作表“{sheet}”已跳过：它的名称不是任何导入类型的名称，它的表头也不含任何导入类型的全部必填列",
        'Sheet "{sheet}" skipped: its name is no import type\'s, and its header does not hold every required '
        "column of any type",
    ),
    (ErrorCode.WORKBOOK_SHEET_SKIPPED, "ambiguous"): (
        "工作表“{sheet}”已跳过：它的表头同时符合多个导入类型（{types}），不作猜测；请指定它的导入类型",
        'Sheet "{sheet}" skipped: its header fits several import types ({types}), and none is guessed; give its '
        "type with --sheet-type",
    ),
    (ErrorCode.WORKBOOK_SHEET_SKIPPED, "ambiguous_name"): (
        "工作表“{sheet}”已跳过：它的名称同时是多个导入类型的名称（{types}），不作猜测；请指定它的导入类型",
        'Sheet "{sheet}" skipped: its name is the name of several import types ({types}), and none is guessed; '
        "give its type with --sheet-type",
    ),
    (ErrorCode.WORKBOOK_SHEET_SKIPPED, "empty"): (
        "工作表“{sheet}”已跳过：它没有表头（空工作表）",
        'Sheet "{sheet}" skipped: it has no header (an empty sheet)',
    ),
    (ErrorCode.NOT_UNDOABLE, "dry_run"): (
        "任务 {task_no} 不能撤销：它只是校验，没有写入任何数据",
        "Task {task_no} cannot be undone: it was a validation-only run (it wrote nothing)",
    ),
    # why a task cannot be resumed ("Import the remaining rows")
    (ErrorCode.NOT_RESUMABLE, "not_import"): (
        "任务 {task_no} 不能继续导入：只有导入任务可以继续",
        "Task {task_no} cannot be resumed: only an import can be",
    ),
    (ErrorCode.NOT_RESUMABLE, "dry_run"): (
        "任务 {task_no} 不能继续导入：它只是校验，没有导入任何行；请直接导入文件",
        "Task {task_no} cannot be resumed: it only checked the file and imported nothing; import the file",
    ),
    (ErrorCode.NOT_RESUMABLE, "active"): (
        "任务 {task_no} 不能继续导入：它还在排队或运行中",
        "Task {task_no} cannot be resumed: it is still queued or running",
    ),
    (ErrorCode.NOT_RESUMABLE, "finished"): (
        "任务 {task_no} 不能继续导入：它已经读完了整个文件",
        "Task {task_no} cannot be resumed: it has read the whole file",
    ),
    (ErrorCode.NOT_RESUMABLE, "bad_file"): (
        "任务 {task_no} 不能继续导入：问题出在文件本身（{why}）；请修正文件后重新导入",
        "Task {task_no} cannot be resumed: the file itself has a problem ({why}); correct it and import it again",
    ),
    (ErrorCode.NOT_RESUMABLE, "undone"): (
        "任务 {task_no} 不能继续导入：它已被撤销；请重新导入文件",
        "Task {task_no} cannot be resumed: it was undone; import the file again",
    ),
    # a mapping profile: which version is missing, what in a profile file is wrong (naming its key), and
    # why a profile no longer fits its type (naming the column)
    (ErrorCode.PROFILE_NOT_FOUND, "version"): (
        "映射配置“{name}”没有第 {version} 版",
        'The mapping profile "{name}" has no version {version}',
    ),
    (ErrorCode.PROFILE_NOT_FOUND, "removed"): (
        "映射配置“{name}”已被移除；可以用同一名称重新保存",
        'The mapping profile "{name}" was removed; it can be saved again under that name',
    ),
    (ErrorCode.PROFILE_INVALID, "bad_name"): (
        "映射配置的名称“{name}”无效：不能为空，不能含 @ 或控制字符，最长 {limit} 个字符",
        'The profile name "{name}" cannot be used: it must not be blank nor hold @ or control characters, '
        "and at most {limit} characters long",
    ),
    (ErrorCode.PROFILE_INVALID, "bad_ref"): (
        "“{name}”不是有效的映射配置：应为 名称 或 名称@版本号（如 华东客户@2）",
        '"{name}" does not name a mapping profile: use NAME or NAME@VERSION (e.g. east@2)',
    ),
    (ErrorCode.PROFILE_INVALID, "syntax"): (
        "映射配置文件 {path} 不是有效的 TOML：{detail}",
        "The profile file {path} is not valid TOML: {detail}",
    ),
    (ErrorCode.PROFILE_INVALID, "unreadable"): (
        "无法读取映射配置文件 {path}：{detail}",
        "The profile file {path} cannot be read: {detail}",
    ),
    (ErrorCode.PROFILE_INVALID, "unknown_table"): (
        "映射配置文件 {path} 有误：未知的表或键 {key}（可用：type、columns、constants、values、options）",
        "The profile file {path} is not valid: unknown table or key {key} (known: type, columns, constants, "
        "values, options)",
    ),
    (ErrorCode.PROFILE_INVALID, "no_type"): (
        "映射配置文件 {path} 有误：缺少 type（它属于哪个导入类型）",
        "The profile file {path} is not valid: type (the import type it belongs to) is missing",
    ),
    (ErrorCode.PROFILE_INVALID, "unknown_column"): (
        "映射配置文件 {path} 有误：{key} 指向的 {column} 不是导入类型 {import_type} 的列",
        "The profile file {path} is not valid: {key} names {column}, which is not a column of the import type "
        "{import_type}",
    ),
    (ErrorCode.PROFILE_INVALID, "unknown_option"): (
        "映射配置文件 {path} 有误：未知的选项 {key}（可用：{allowed}）",
        "The profile file {path} is not valid: unknown option {key} (known: {allowed})",
    ),
    (ErrorCode.PROFILE_INVALID, "bad_option"): (
        "映射配置文件 {path} 有误：选项 {key} 的值 {value} 无效（应为：{allowed}）",
        "The profile file {path} is not valid: option {key} cannot be {value} (use: {allowed})",
    ),
    (ErrorCode.PROFILE_INVALID, "not_text"): (
        "映射配置文件 {path} 有误：{key} 的值应为文字（加引号）",
        "The profile file {path} is not valid: {key} must be a text (in quotes)",
    ),
    (ErrorCode.PROFILE_INVALID, "not_table"): (
        "映射配置文件 {path} 有误：{key} 应为一个表",
        "The profile file {path} is not valid: {key} must be a table",
    ),
    (ErrorCode.PROFILE_INVALID, "blank"): (
        "映射配置文件 {path} 有误：{key} 不能为空",
        "The profile file {path} is not valid: {key} must not be blank",
    ),
    (ErrorCode.PROFILE_INVALID, "same_value"): (
        "映射配置文件 {path} 有误：{key} 与同一列的另一个值映射相同（忽略大小写、全半角和首尾空格后）",
        "The profile file {path} is not valid: {key} is the same value as another mapping of its column "
        "(once case, width and spaces are folded)",
    ),
    (ErrorCode.PROFILE_INVALID, "same_header"): (
        "映射配置文件 {path} 有误：表头 {key} 出现了两次（忽略大小写、全半角和首尾空格后）",
        "The profile file {path} is not valid: the header {key} appears twice (once case, width and spaces are folded)",
    ),
    (ErrorCode.PROFILE_INVALID, "twice"): (
        "映射配置文件 {path} 有误：列 {column} 既由表头 {key} 填写，又有常量",
        "The profile file {path} is not valid: column {column} is filled both by the header {key} and by a constant",
    ),
    (ErrorCode.PROFILE_INVALID, "bad_constant"): (
        "映射配置文件 {path} 有误：{key} 的常量“{value}”不是列 {column} 允许的值：{problem_zh}",
        'The profile file {path} is not valid: the constant {key} = "{value}" is not a value column {column} '
        "allows: {problem_en}",
    ),
    (ErrorCode.PROFILE_INVALID, "bad_value"): (
        "映射配置文件 {path} 有误：{key} 映射为“{target}”，这不是列 {column} 允许的值：{problem_zh}",
        'The profile file {path} is not valid: {key} maps to "{target}", which is not a value column {column} '
        "allows: {problem_en}",
    ),
    (ErrorCode.PROFILE_INVALID, "nul"): (
        "映射配置文件 {path} 有误：{key} 含有空字符（NUL）",
        "The profile file {path} is not valid: {key} holds a NUL character",
    ),
    (ErrorCode.PROFILE_UNFIT, "no_column"): (
        "映射配置“{name}”第 {version} 版与导入类型 {import_type} 不再相符：导入类型已没有列 {column}",
        'The mapping profile "{name}" version {version} no longer fits the import type {import_type}: it has '
        "no column {column} any more",
    ),
    (ErrorCode.PROFILE_UNFIT, "bad_constant"): (
        "映射配置“{name}”第 {version} 版与导入类型 {import_type} 不再相符：列 {column} 的常量“{value}”"
        "不是这一列允许的值：{problem_zh}",
        'The mapping profile "{name}" version {version} no longer fits the import type {import_type}: the '
        'constant "{value}" of column {column} is not a value that column allows: {problem_en}',
    ),
    (ErrorCode.PROFILE_UNFIT, "bad_value"): (
        "映射配置“{name}”第 {version} 版与导入类型 {import_type} 不再相符：列 {column} 把“{value}”映射为"
        "“{target}”，这不是这一列允许的值：{problem_zh}",
        'The mapping profile "{name}" version {version} no longer fits the import type {import_type}: column '
        '{column} maps "{value}" to "{target}", which is not a value that column allows: {problem_en}',
    ),
}


class WarningCode(StrEnum):
    """Things a file's reader noticed that did not stop the import, copied into the task's summary."""

    XLS_NOT_CHECKED = "xls_not_checked"
    XLS_CONTAINER_DEFECTS = "xls_container_defects"
    MERGED_CELLS_FILLED = "merged_cells_filled"


WARNING_MESSAGES: dict[WarningCode, tuple[str, str]] = {
    WarningCode.XLS_NOT_CHECKED: (
        "无法核对这个 .xls 文件是否完整（{detail}）；如果行数比预期少，文件可能已损坏",
        "Whether this .xls file is complete could not be checked ({detail}); if rows are fewer than "
        "expected, the file may be damaged",
    ),
    WarningCode.XLS_CONTAINER_DEFECTS: (
        "这个 .xls 文件的容器有缺陷（{detail}），数据仍已读出，但文件可能已损坏，请核对行数",
        "This .xls file's container has defects ({detail}); the data was read, but the file may be "
        "damaged: check the row count",
    ),
    WarningCode.MERGED_CELLS_FILLED: (
        "合并的单元格 {ranges} 已向下填充：合并区域的每一行都取它显示的值（共 {count:,} 处）",
        "Merged cells {ranges} were filled down: each row of a merged block took the value it shows "
        "({count:,} {count:plural:block|blocks})",
    ),
}


messages.register(ErrorCode, {**MESSAGES, **REASONS})
messages.register(WarningCode, WARNING_MESSAGES)


def message(code: ErrorCode | str, lang: Lang = "zh", **params: object) -> str:
    """The plain-language message for a code, in the given language, with params filled in. The str is a
    Phrase keeping its code and params: the task table stores them and a view shows it in another
    language (typed as a plain str, which it is, so callers may edit the text as any other)."""
    code = ErrorCode(code)
    return Phrase(messages.text(code, lang, **params), "error", code.value, params)


def warning_message(code: WarningCode | str, lang: Lang = "zh", **params: object) -> str:
    """The plain-language text of a reader's warning, like message() for an error."""
    return messages.text(WarningCode(code), lang, **params)


class BatchDeskError(Exception):
    """An expected problem with a code and a plain message; never shown with a traceback."""

    retryable = False

    def __init__(self, code: ErrorCode, **params: object) -> None:
        self.code = ErrorCode(code)
        self.params = params
        super().__init__(message(self.code, "en", **params))

    def text(self, lang: Lang = "zh") -> str:
        return message(self.code, lang, **self.params)


class PermanentError(BatchDeskError):
    """Retrying cannot help: a bad file, a validation failure, bad parameters."""


class TransientError(BatchDeskError):
    """May pass on its own: a busy or unreachable database, a file held by another program."""

    retryable = True


_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})


def disk_full(exc: BaseException) -> TransientError | None:
    """A full disk (or a spent quota) met anywhere in a task, as the plain passing failure it is."""
    if isinstance(exc, OSError) and exc.errno in _DISK_FULL_ERRNOS:
        return TransientError(ErrorCode.DISK_FULL, detail=exc.strerror or str(exc))
    return None
