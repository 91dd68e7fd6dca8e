"""Bring resources/i18n/*.ts up to date with the window's source texts and fill in the Chinese ones.

Usage: .venv/bin/python scripts/fill_zh_translations.py [--check]

1. pyside6-lupdate extracts every tr() / QCoreApplication.translate() text of desktop_app/ui.
2. Both .ts files are rewritten with exactly those texts (texts no longer in the code are dropped),
   keeping the translations they already have.
3. A Chinese text still missing is taken from ZH below; English is the source language, so its file
   only lists the texts (unfinished, empty).
Exits 1 (and names them) when a Chinese translation is missing; with --check, also when a file would
change, without writing it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "resources" / "i18n"
LOCALES = {"zh_CN": "zh_CN", "en": "en_US"}  # file suffix -> the TS language attribute

# Chinese for texts added since the .ts files were last filled: (context, source) -> translation.
# Older texts keep the translation already in batchdesk_zh_CN.ts.
ZH: dict[tuple[str, str], str] = {
    ("TaskActions", "Look the &names up again"): "重新查找名称(&N)",
    ("TaskActions", "Look the names up again"): "重新查找名称",
    ("TaskActions", "Look up again the names this import did not find (added to their table since, by you or a "
                    "colleague) and fill in its rows; adds no name"):
        "重新查找这次导入没有找到的名称（之后由你或同事添加到表中的），并补全这些行；不会添加任何名称",
    ("MainWindow", "Task %1 (%2) has not finished."): "任务 %1（%2）尚未完成。",
    ("MainWindow", "Task %1 has not finished."): "任务 %1 尚未完成。",
    ("MainWindow", "%1 Stop it now (it continues from where it stopped at the next start) or keep it running in "
                   "the background?"): "%1现在停止（下次启动时从停下的地方继续），还是让它在后台继续运行？",
    ("MainWindow", "%1 tasks have not finished (%2)."): "%1 个任务尚未完成（%2）。",
    ("MainWindow", ", "): "、",
    ("MainWindow", "Tasks are still running."): "仍有任务在运行。",
    ("MainWindow", "%1 Stop them now (they continue from where they stopped at the next start) or keep them "
                   "running in the background?"):
        "%1现在停止（下次启动时从停下的地方继续），还是让它们在后台继续运行？",
    # the Details panel with no task selected says so in one line
    ("DetailsPanel", "Select a task to see its details."): "选择一个任务以查看详情。",
    ("TaskNotices", "The remaining rows of %1 were already continued by %2."): "%1 的剩余行已由 %2 继续导入。",
    # an update's outcome with rows in error says what its rows became
    ("Outcomes", "Done: %1, 1 row with errors"): "已完成：%1，1 行有错误",
    ("Outcomes", "Done: %1, %3 rows with errors"): "已完成：%1，%3 行有错误",
    # Qt's own file chooser texts its zh_CN translation lacks (desktop_app/ui/qt_words.py)
    ("QFileDialog", "&Look in:"): "查找范围(&L)：",
    ("QFileDialog", "Files of &type:"): "文件类型(&T)：",
    ("QAbstractFileIconProvider", "Folder"): "文件夹",
    ("QAbstractFileIconProvider", "File Folder"): "文件夹",
    ("QAbstractFileIconProvider", "Drive"): "驱动器",
    ("QAbstractFileIconProvider", "Shortcut"): "快捷方式",
    ("QAbstractFileIconProvider", "Alias"): "替身",
    ("QAbstractFileIconProvider", "Unknown"): "未知",
    # a clerk's tryout: adding an import's missing names to master data is asked first, the quit question
    # names a running system task
    ("AddNamesQuestion", "Add to the master data?"): "添加到主数据？",
    ("AddNamesQuestion", "Add 1 name to the master data?"): "将 1 个名称添加到主数据？",
    ("AddNamesQuestion", "Add %1 names to the master data?"): "将 %1 个名称添加到主数据？",
    ("AddNamesQuestion", "&Add 1 name"): "添加 1 个名称(&A)",
    ("AddNamesQuestion", "&Add %1 names"): "添加 %1 个名称(&A)",
    ("AddNamesQuestion", "&Do not add"): "不添加(&D)",
    ("AddNamesQuestion", "%3 (1 new name): %4"): "%3（1 个新名称）：%4",
    ("AddNamesQuestion", "%3 (%1 new names): %4"): "%3（%1 个新名称）：%4",
    ("AddNamesQuestion", ", "): "、",
    ("AddNamesQuestion", ", … (%1 more)"): "，…（另有 %1 个）",
    ("AddNamesQuestion", "This completes up to 1 row of task %2 waiting on them."):
        "这将补全任务 %2 中等待它们的最多 1 行。",
    ("AddNamesQuestion", "This completes up to %1 rows of task %2 waiting on them."):
        "这将补全任务 %2 中等待它们的最多 %1 行。",
    ("AddNamesQuestion", "The names are added to the table for everyone; undoing the import does not remove them."):
        "这些名称会添加到表中，所有人可见；撤销导入不会删除它们。",
    ("ImportCatalog", "A feed's look at its folder"): "监视文件夹的检查",
    ("ImportCatalog", "A feed's mail about an import"): "监视文件夹的导入通知邮件",
    ("MainWindow", "Running in the background: %1"): "正在后台运行：%1",
    ("TaskActions", "Task %1 has no missing names left to add."): "任务 %1 已没有要添加的缺少名称。",
    # a clerk's tryout of the dialogs: the value fix offered where a failed import ends, the preview's
    # button saying what it does ("校验" as the window calls a dry run)
    ("TaskNotices", "Fix values…"): "修正取值…",
    ("PreviewDialog", "Va&lidate"): "校验(&L)",
    ("WorkbookDialog", "Validate"): "校验",
    ("SubmitPanel", "Choose a workbook to import every sheet of"): "选择要导入全部工作表的工作簿",
    ("SubmitPanel", "Excel workbooks (%s)"): "Excel 工作簿 (%s)",
    ("TaskActions", "Preparing the change file of %1…"): "正在准备 %1 的变更文件…",
    ("Outcomes", "Fixed"): "已修正",
    ("Outcomes", "1 row removed"): "删除 1 行",
    ("Outcomes", "%1 rows removed"): "删除 %1 行",
    ("Outcomes", "1 row put back"): "恢复 1 行",
    ("Outcomes", "%1 rows put back"): "恢复 %1 行",
    ("Outcomes", "1 row kept (changed since)"): "保留 1 行（之后已被改动）",
    ("Outcomes", "%1 rows kept (changed since)"): "保留 %1 行（之后已被改动）",
    ("Outcomes", "Done: nothing to undo"): "已完成：没有需要撤销的行",
    ("Outcomes", ", "): "，",
    ("Outcomes", "Done after a fix: %1 rows imported"): "修正后完成：导入 %1 行",
    ("AboutDialog", "The system could not open %1. Copy its path from the field and open it yourself."):
        "系统无法打开 %1。请从上面的输入框复制它的路径，自己打开。",
    ("MainWindow", "This sync would delete 1 row of %2 (scope: %3): the row the file lacks."):
        "这次同步将删除表 %2 的 1 行（范围：%3），即文件里没有的那一行。",
    ("PreviewDialog", "Rows that fail go to the error file; the others are still deleted."):
        "失败的行会写入错误文件，其余的行照常删除。",
    ("PreviewDialog", "1 row"): "1 行",
    ("Outcomes", "Done: 1 row exported"): "已完成：导出 1 行",
    ("UndoQuestion", "The 1 row it added will be removed."): "它新增的 1 行将被删除。",
    ("UndoQuestion", "The 1 row it changed gets its old values back."): "它修改过的 1 行将恢复原值。",
    ("UndoQuestion", "The 1 row it deleted will be put back."): "它删除的 1 行将被放回。",
    ("ValueFixDialog", "1 row of this import failed for a value its column does not allow. Choose the right value; "
                       "a value left at “%2” is not changed, its row stays in the error file."):
        "这次导入有 1 行因为取值不在该列允许的范围内而失败。请选择正确的值；"
        "保留为%2的取值不会修改，这一行仍留在错误文件里。",
    ("PreviewDialog", "The one row passes every check."): "这 1 行全部通过检查。",
    ("PreviewDialog", "The cells of the one row pass every check; looking it up in the table…"):
        "这 1 行的单元格全部通过检查；正在到表中查找它…",
    ("Outcomes", "Checked: the 1 row is valid"): "校验完成：1 行全部有效",
    ("Outcomes", "Done: 1 row imported"): "已完成：导入 1 行",
    ("Outcomes", "Done: %1"): "已完成：%1",
    ("Outcomes", "%1 added"): "新增 %1 行",
    ("Outcomes", "%1 updated"): "更新 %1 行",
    ("Outcomes", "%1 unchanged"): "%1 行未变",
    ("Outcomes", "%1 deleted"): "删除 %1 行",
    ("Outcomes", "Done: 1 row deleted"): "已完成：删除 1 行",
    ("FeedNotices", "Feed %1: %2 could not be imported (imported: %3, rows with errors: %4)"):
        "监视文件夹 %1：%2 没能导入（已导入 %3 行，%4 行有错误）",
    ("FeedNotices", "Feed %1: %2 was imported with errors (imported: %3, rows with errors: %4)"):
        "监视文件夹 %1：%2 已导入，但有错误（已导入 %3 行，%4 行有错误）",
    ("DetailsPanel", "%1 processed so far, %3 succeeded, %4 failed"): "已处理 %1 行，成功 %3，失败 %4",
    ("Outcomes", "Checked: %1 of %2 rows valid, 1 row with errors"): "校验完成：%1 行有效（共 %2 行），1 行有错误",
    ("Outcomes", "Done: %1 of %2 imported, 1 row with errors"): "已完成：导入 %1 行（共 %2 行），1 行有错误",
    ("Outcomes", "Failed check: %1 of %2 rows valid, 1 row with errors"):
        "校验未通过：%1 行有效（共 %2 行），1 行有错误",
    ("Outcomes", "Failed: %1 of %2 imported, 1 row with errors"): "失败：已导入 %1 行（共 %2 行），1 行有错误",
    ("Outcomes", "Failed: nothing imported, 1 row with errors"): "失败：没有导入任何行，1 行有错误",
    ("UndoQuestion", "Undo import %1 (%2)?"): "撤销导入 %1（%2）？",
    # the preview's hint names the box as it reads: "仅对这个文件把大小上限提高到 %1 MB"
    ("PreviewDialog", "Or tick “Raise the size limit … for this file” below to import it whole."):
        "也可以勾选下方的“仅对这个文件把大小上限提高到…”，整个文件照常导入。",
    ("UndoQuestion", "Undo import %1?"): "撤销导入 %1？",
    # an import another task undid or continued, as the list reads it (%2: how it ended)
    ("Outcomes", "Undone by %1 — %2"): "已被 %1 撤销 — %2",
    ("Outcomes", "Continued by %1 — %2"): "已由 %1 继续导入 — %2",
    ("UndoQuestion", "Undo this import?"): "撤销这次导入？",
    ("UndoQuestion", "&Undo the import"): "撤销导入(&U)",
    ("UndoQuestion", "&Keep the rows"): "保留这些行(&K)",
    ("UndoQuestion", "%1 rows it added will be removed."): "它新增的 %1 行将被删除。",
    ("UndoQuestion", "%1 rows it changed get their old values back."): "它修改过的 %1 行将恢复原值。",
    ("UndoQuestion", "A row changed since the import (by hand or by a later import) is kept as it is and listed "
                     "in the undo's error file."):
        "导入之后又被修改过的行（手工修改或后来的导入）会原样保留，并列在撤销任务的错误文件里。",
    ("TaskActions", "&Undo this import…"): "撤销这次导入(&U)…",
    ("DetailsPanel", "%1 processed of %2, %3 succeeded, %4 failed"): "已处理 %1 行（共 %2 行），成功 %3，失败 %4",
    ("ExportDialog", "Save &to:"): "保存到(&T)：",
    ("ExportDialog", "Where the exported file is saved"): "导出的文件保存在哪里",
    ("ExportDialog", "&Browse…"): "浏览(&B)…",
    ("ExportDialog", "Save the export as"): "导出文件另存为",
    ("ExportDialog", "Excel workbook (*.xlsx)"): "Excel 工作簿 (*.xlsx)",
    ("ExportDialog", "CSV file (*.csv)"): "CSV 文件 (*.csv)",
    ("ExportDialog", "Replace the file?"): "替换这个文件？",
    ("ExportDialog", "%1 already exists. Replace it with the export?"): "%1 已存在。要用导出的文件替换它吗？",
    ("ExportDialog", "&Replace"): "替换(&R)",
    ("TaskActions", "Remove the rows this import added and put back the values it changed"):
        "删除这次导入新增的行，并恢复它修改过的值",
    ("WindowMenus", "Show a&rchived tasks"): "显示已归档的任务(&R)",
    ("WindowMenus", "Tasks that ended long ago, which the daily clean-up moved to the archive"):
        "很久以前已结束、被每日清理移入归档的任务",
    ("PreviewDialog", "&Rows already in the table:"): "表中已有的行(&R)：",
    ("PreviewDialog", "&Blank cells:"): "空白单元格(&B)：",
    ("PreviewDialog", "Add new rows only (a row already in the table is an error)"): "只新增（表中已有的行记为错误）",
    ("PreviewDialog", "Add new, skip existing"): "只新增，跳过已有的行",
    ("PreviewDialog", "Update existing (only rows already in the table)"): "只更新（仅限表中已有的行）",
    ("PreviewDialog", "Add new and update existing"): "新增并更新已有的行",
    ("PreviewDialog", "Keep what is stored"): "保留表中原值",
    ("PreviewDialog", "Empty the stored value"): "清空表中原值",
    ("PreviewDialog", "What to do with rows already in the table"): "如何处理表中已有的行",
    ("PreviewDialog", "What a blank cell does to a row being updated"): "更新时空白单元格的处理方式",
    ("SubmitPanel", "%1 (cannot be used)"): "%1（无法使用）",
    ("SubmitPanel", "Te&mplate…"): "下载模板(&M)…",
    ("SubmitPanel", "Save an empty file with this type's columns and rules to fill in"):
        "保存一个带有本类型各列和规则说明的空白文件，填好后即可导入",
    ("SubmitPanel", "Download a template for the import type"): "下载导入类型的模板",
    ("SubmitPanel", "Save a template for %s"): "保存“%s”的模板",
    ("SubmitPanel", "Excel workbook (*.xlsx)"): "Excel 工作簿 (*.xlsx)",
    ("SubmitPanel", "CSV file (*.csv)"): "CSV 文件 (*.csv)",
    ("Desk", "Template saved: %1"): "模板已保存：%1",
    ("Desk", "The template could not be saved: %1"): "无法保存模板：%1",
    ("DetailsPanel", "attempt %1, retries %2 of %4, recoveries %3"):
        "第 %1 次执行，重试 %2 次（最多 %4 次），恢复 %3 次",
    ("DetailsPanel", "Its file replaced the file of %1."): "它的文件替换了 %1 的文件。",
    ("DetailsPanel", "Filters"): "筛选条件",
    ("DetailsPanel", "Format"): "格式",
    ("DetailsPanel", "File replaced"): "文件替换",
    ("ExportDialog", "(any)"): "（不限）",
    ("ExportDialog", "Filter by %s"): "按%s筛选",
    ("ExportDialog", "Choose what to export."): "请选择要导出的内容。",
    ("ExportDialog", "“%1” is after “%2”."): "“%1”晚于“%2”。",
    ("ExportDialog", "Export"): "导出",
    ("ExportDialog", "E&xport:"): "导出内容(&X)：",
    ("ExportDialog", "What to export"): "要导出的内容",
    ("ExportDialog", "&Format:"): "格式(&F)：",
    ("ExportDialog", "File format"): "文件格式",
    ("ExportDialog", "E&ncoding:"): "编码(&N)：",
    ("ExportDialog", "Encoding of the CSV file"): "CSV 文件的编码",
    ("ExportDialog", "Only the rows with"): "只导出符合以下条件的行",
    ("ExportDialog", "C&lear the filters"): "清除筛选条件(&L)",
    ("ExportDialog", "Clear the filters"): "清除筛选条件",
    ("ExportDialog", "&Export"): "导出(&E)",
    ("ExportDialog", "Queue the export"): "提交导出任务",
    ("ImportCatalog", "Level"): "等级",
    ("ImportCatalog", "Department"): "部门",
    ("ImportCatalog", "Opened from"): "开户日期从",
    ("ImportCatalog", "Opened until"): "开户日期到",
    ("ImportCatalog", "Imported by task"): "导入任务编号",
    ("ImportCatalog", "none (every row)"): "无（全部行）",
    ("ImportCatalog", "Complete references"): "补全关联",
    ("ImportCatalog", "Daily clean-up"): "每日清理",
    ("MainWindow", "The same export is already queued as task %s."): "相同的导出已在排队，任务 %s。",
    ("MainWindow", "The same request is already queued as task %s."): "相同的请求已在排队，任务 %s。",
    ("MainWindow", "E&xport…"): "导出(&X)…",
    ("MainWindow", "%1 cannot be read: %2"): "无法读取 %1：%2",
    ("MainWindow", "%s is in the file field: queue it when the open preview is closed."):
        "%s 已填入文件栏：请在关闭当前预览后再提交。",
    ("MainWindow", "Export a table to a CSV or Excel file, with filters"): "按条件把数据导出为 CSV 或 Excel 文件",
    ("MainWindow", "Show a&rchived tasks"): "显示已归档的任务(&R)",
    ("MainWindow", "Tasks that ended more than %s days ago, which the daily clean-up moved to the archive"):
        "结束超过 %s 天、已由每日清理移入归档的任务",
    ("MainWindow", "Showing the archived tasks."): "正在显示已归档的任务。",
    ("TaskActions", "The exported file is gone: %s"): "导出的文件已不存在：%s",
    ("TaskActions", "&Open exported file"): "打开导出文件(&O)",
    ("TaskActions", "Open the exported file in the spreadsheet application"): "用电子表格程序打开导出的文件",
    ("TaskActions", "Complete refere&nces"): "补全关联(&N)",
    ("TaskActions", "Fill in the references this import left pending (for example departments created since)"):
        "补全这次导入时尚未找到的关联（例如之后才建立的部门）",
    ("TaskTexts", "Retry %1 of %2 at %3"): "第 %1 次重试（共 %2 次），%3",
    ("TaskTexts", "Replaced by %1"): "已被 %1 替换",
    ("TaskTexts", "Expired: its files were deleted"): "已过期：文件已删除",
    ("TaskTexts", "A newer export with the same filters (task %1) replaced this file; it was deleted."):
        "条件相同的新导出（任务 %1）替换了这个文件，旧文件已删除。",
    ("TaskTexts", "The retention clean-up deleted this task's files."): "保留期清理已删除这个任务的文件。",
    ("TaskTexts", "GB18030 (Chinese Windows)"): "GB18030（中文 Windows）",
    ("TaskTexts", "UTF-8 with BOM (Excel)"): "UTF-8 带 BOM（Excel）",
    # the preview's file choices and checks (issue 11)
    ("FileChoices", "&Sheet:"): "工作表(&S)：",
    ("FileChoices", "&Encoding:"): "编码(&E)：",
    ("FileChoices", "&Separator:"): "分隔符(&P)：",
    ("FileChoices", "&Dates such as %1:"): "像 %1 这样的日期(&D)：",
    ("FileChoices", "Numbers use a decimal &comma (1 234,50 or 1.234,50)"):
        "数字以逗号作小数点(&C)（1 234,50 或 1.234,50）",
    ("FileChoices", "Raise the size &limit to %1 MB for this file"): "仅对这个文件把大小上限提高到 %1 MB(&L)",
    ("FileChoices", "Raise the ro&w limit to %1 rows for this import"): "仅对这次导入把行数上限提高到 %1 行(&W)",
    ("FileChoices", "Sheet of the workbook"): "工作簿中的工作表",
    ("FileChoices", "Encoding"): "编码",
    ("FileChoices", "Separator between the fields"): "字段之间的分隔符",
    ("FileChoices", "Order of day and month in the file's dates"): "文件中日期的日、月顺序",
    ("FileChoices", "Comma (,)"): "逗号（,）",
    ("FileChoices", "Semicolon (;)"): "分号（;）",
    ("FileChoices", "Tab"): "制表符（Tab）",
    ("FileChoices", "Vertical bar (|)"): "竖线（|）",
    ("FileChoices", "Detected from the file"): "从文件自动识别",
    ("FileChoices", "As the file's sep= line says: %1"): "按文件首行 sep= 的说明：%1",
    ("FileChoices", "Detected: %1"): "自动识别：%1",
    ("FileChoices", "Choose: the file does not say"): "请选择：文件里看不出来",
    ("FileChoices", "Day first: %1 is %2"): "日在前：%1 即 %2",
    ("FileChoices", "Month first: %1 is %2"): "月在前：%1 即 %2",
    ("FileChoices", "Row %1 has the date %2, which can be read day first or month first, and the file does not show "
                    "which: choose the order of its dates."):
        "第 %1 行的日期 %2 既可以读作日在前，也可以读作月在前，文件里也看不出是哪一种：请选择这个文件的日期顺序。",
    ("FileChoices", "Dates such as %1 are read %2, as row %3 (%4) shows."):
        "像 %1 这样的日期按%2读取，第 %3 行（%4）表明了这一点。",
    ("ProfileChoice", "&Profile:"): "映射配置(&P)：",
    ("ProfileChoice", "None"): "无",
    ("ProfileChoice", "Mapping profile"): "映射配置",
    ("ProfileChoice", "Save as profile for the &team…"): "另存为团队映射配置(&T)…",
    ("ProfileChoice", "Save these header choices and reading options as a profile that every desk on this "
                      "database can use"): "把这些表头选择和读取选项保存为映射配置，使用同一数据库的每台电脑都能用",
    ("ProfileChoice", "Using profile '%1' v%2"): "使用映射配置“%1” 第 %2 版",
    ("ProfileChoice", "Saved as '%1' v%2"): "已保存为映射配置“%1” 第 %2 版",
    ("ProfileChoice", "Save as profile for the team"): "另存为团队映射配置",
    ("ProfileChoice", "Name of the profile (an existing name gets its next version):"):
        "映射配置名称（已有的名称会保存为它的新版本）：",
    ("ProfileChoice", "Save"): "保存",
    ("ProfileChoice", "Cancel"): "取消",
    ("PreviewDialog", "Saving the profile…"): "正在保存映射配置…",
    ("PreviewDialog", "The profile could not be saved: %1"): "无法保存映射配置：%1",
    ("Desk", "Remembered header mappings are now profiles for the team: %1"):
        "以前记住的表头对应关系已转为团队映射配置：%1",
    ("FileChoices", "day first"): "日在前",
    ("FileChoices", "month first"): "月在前",
    ("PreviewDialog", "Tick “Raise the size limit” below to import it all the same."):
        "勾选下方的“提高大小上限”即可照常导入。",
    ("PreviewDialog", "Cannot queue: %1"): "无法排队导入：%1",
    ("PreviewDialog", "Choose how the file writes its dates (day first or month first) before queueing."):
        "排队前请选择这个文件的日期写法（日在前还是月在前）。",
    ("PreviewDialog", "%1 of the first %2 rows would fail: hover a red cell for the reason. They go to the error file; "
                      "the other rows import."):
        "前 %2 行中有 %1 行会失败：把鼠标停在红色单元格上可看原因。这些行会写入错误文件，其余的行照常导入。",
    ("PreviewDialog", "The first %1 rows pass every check."): "前 %1 行全部通过检查。",
    ("PreviewDialog", "%1 MB"): "%1 MB",
    ("PreviewDialog", "%1 KB"): "%1 KB",
    ("PreviewDialog", "Counting the rows…"): "正在统计行数…",
    ("PreviewDialog", "About %1 rows"): "约 %1 行",
    # the row limit, said before queueing; the hint names the box as it reads: "仅对这次导入把行数上限提高到 %1 行"
    ("PreviewDialog", "Cannot queue: about %1 rows, more than the limit of %2 rows."):
        "无法排队导入：约 %1 行，超过上限 %2 行。",
    ("PreviewDialog", "Cannot queue: %1 rows, more than the limit of %2 rows."):
        "无法排队导入：共 %1 行，超过上限 %2 行。",
    ("PreviewDialog", "Split the file and import the parts."): "请拆分文件后分别导入。",
    ("PreviewDialog", "Split the file, or tick “Raise the row limit … for this import” below."):
        "请拆分文件，或勾选下方的“仅对这次导入把行数上限提高到…”。",
    ("PreviewDialog", "%1 rows"): "%1 行",
    ("PreviewDialog", "First rows as they will be read and checked:"): "前几行（按导入时的方式读取并检查）：",
    ("PreviewDialog", "This row has problems: hover its red cells"): "这一行有问题：把鼠标停在红色单元格上可看原因",
    ("PreviewDialog", "Fills the column %1"): "填入“%1”列",
    ("PreviewDialog", "Not used: the header “%1” already fills the column %2"): "未使用：表头“%1”已经填入“%2”列",
    ("PreviewDialog", "“%1” is not used: the header “%2” already fills the column %3"):
        "“%1”未使用：表头“%2”已经填入“%3”列",
    ("PreviewDialog", "Ignored: no column of this type"): "忽略：不是该导入类型的列",
    ("TaskActions", "This error file is unchanged since BatchDesk wrote it: its rows would fail again. Correct the "
                    "cells its last columns name, save the file, then re-import it."):
        "这个错误文件自 BatchDesk 写出后还没有改过：直接导入这些行还会失败。"
        "请按最后几列说明的原因改正单元格，保存后再导入。",
    ("DetailsPanel", "Stopped at %1 of %2 rows."): "停在第 %1 / %2 行。",
    ("DetailsPanel", "Stopped after %1 rows."): "处理 %1 行后停止。",
    ("DetailsPanel", "Import the remaining rows to finish the file: the rows already in stay."):
        "选择“导入其余的行”即可完成这个文件：已导入的行保持不变。",
    ("DetailsPanel", "Imports the remaining rows of task %1."): "导入任务 %1 其余的行。",
    ("DetailsPanel", "Its remaining rows are imported by task %1."): "其余的行由任务 %1 导入。",
    ("DetailsPanel", "Stopped"): "停止位置",
    ("DetailsPanel", "Continues"): "续导",
    ("MainWindow", "The remaining rows of this file were already imported by task %s."):
        "这个文件其余的行已由任务 %s 导入。",
    ("ResumeQuestion", "Import stopped early"): "导入中途停止",
    ("ResumeQuestion", "Import the remaining rows? The rows already in stay and count as imported; the rest of the "
                       "file is imported."):
        "导入其余的行吗？已导入的行保持不变并计为已导入，只导入文件中剩下的行。",
    ("ResumeQuestion", "Import the &remaining rows"): "导入其余的行(&R)",
    ("ResumeQuestion", "Import it all &again"): "全部重新导入(&A)",
    ("ResumeQuestion", "&Do nothing"): "暂不处理(&D)",
    ("ResumeQuestion", "This file's import (task %1) was cancelled at %2 of %3 rows."):
        "这个文件的导入（任务 %1）在第 %2 / %3 行时被取消。",
    ("ResumeQuestion", "This file's import (task %1) was cancelled after %2 rows."):
        "这个文件的导入（任务 %1）在处理 %2 行后被取消。",
    ("ResumeQuestion", "This file's import (task %1) stopped at %2 of %3 rows: %4"):
        "这个文件的导入（任务 %1）在第 %2 / %3 行时中断：%4",
    ("ResumeQuestion", "This file's import (task %1) stopped after %2 rows: %4"):
        "这个文件的导入（任务 %1）在处理 %2 行后中断：%4",
    ("TaskActions", "Import the re&maining rows"): "导入其余的行(&M)",
    ("TaskActions", "Go on where this import stopped: the rows already in stay and count as imported, the rest "
                    "of the file is imported"):
        "从这次导入停下的地方继续：已导入的行保持不变并计为已导入，只导入文件中剩下的行",
    ("DetailsPanel", "Not found"): "未找到",
    ("TaskActions", "Add the names this import did not find to their table, then fill in the references of its "
                    "rows"):
        "把这次导入没有找到的名称添加到对应的表中，然后补全这些行的引用",
    ("TaskActions", "Import the remaining rows"): "导入其余的行",
    ("TaskActions", "Complete references"): "补全关联",
    ("TaskActions", "Add the missing names and complete"): "添加缺少的名称并补全",
    ("TaskActions", "&Add the missing names and complete"): "添加缺少的名称并补全(&A)",
    ("TaskNotices", "Import the remaining rows"): "导入其余的行",
    ("TaskNotices", "%1 (%2)"): "%1（%2）",
    ("TaskNotices", "Add the missing names and complete"): "添加缺少的名称并补全",
    ("TaskNotices", " (see the details)"): "（见详情）",
    ("TaskNotices", " (it ended before the cancel could stop it)"): "（取消生效之前，任务已经结束）",
    ("ImportCatalog", "Undo of %1"): "撤销 %1",
    ("ImportCatalog", "Workbook import"): "工作簿导入",
    ("WindowMenus", "Import &every sheet…"): "导入全部工作表(&E)…",
    ("WindowMenus", "A workbook of several tables: each sheet as the import type its name or header matches"):
        "含多张表的工作簿：每个工作表按名称或表头对应的导入类型导入",
    ("WorkbookDialog", "Import every sheet: %1"): "导入全部工作表：%1",
    ("WorkbookDialog", "Each sheet is imported as the import type its name or header matches, one after another, "
                       "a sheet whose references look up another sheet's table after that sheet. A sheet that "
                       "matches no type, or several, is skipped."):
        "每个工作表按其名称或表头对应的导入类型逐个导入；引用另一个工作表数据的工作表排在那个工作表之后。"
        "对应不到任何类型、或同时对应多个类型的工作表会被跳过。",
    ("WorkbookDialog", "Sheet"): "工作表",
    ("WorkbookDialog", "Order"): "顺序",
    ("WorkbookDialog", "Imported as"): "导入为",
    ("WorkbookDialog", "Validate only (commit nothing)"): "仅校验（不写入任何数据）",
    ("WorkbookDialog", "Queue"): "加入队列",
    ("PreviewDialog", "%1 bytes"): "%1 字节",
    ("SubmitPanel", "F&ile:"): "文件(&I)：",
    ("WindowMenus", "Co&py rows"): "复制行(&P)",
    ("WindowMenus", "Q&ueue the file…"): "排队导入该文件(&U)…",
    ("WindowMenus", "&Go to the task list"): "转到任务列表(&G)",
    ("WindowMenus", "Show cl&eared tasks"): "显示已清除的任务(&E)",
    ("WindowMenus", "Fi&t columns to the window"): "列宽适应窗口(&T)",
    ("SubmitPanel", "Import t&ype:"): "导入类型(&Y)：",
    ("SubmitPanel", "Vali&date only…"): "仅校验(&D)…",
    ("ExportDialog", "Only the rows imported by %1"): "只导出任务 %1 导入的行",
    ("ExportDialog", "<task number>"): "<任务号>",
    ("ExportDialog", "<date-time>"): "<日期时间>",
    ("Outcomes", "Done: no row matches the filters (a text must match the whole value)"):
        "已完成：没有符合筛选条件的行（文字须与整个值相同）",
    # a delete cancelled midway: its rows are gone, not "in"
    ("Outcomes", "Cancelled before any row was deleted"): "已取消，没有删除任何行",
    ("Outcomes", "Cancelled: %1 of %2 deleted; they stay deleted"): "已取消：已删除 %1 行（共 %2 行），这些行不会恢复",
    ("Outcomes", "Cancelled: %1 deleted; they stay deleted"): "已取消：已删除 %1 行，这些行不会恢复",
    ("CancelQuestion", "%1 of %2 rows are deleted already. They stay deleted; the rest of the file's rows are not "
                       "deleted."): "已删除 %1 行（共 %2 行）。这些行不会恢复；文件中其余的行不再删除。",
    ("CancelQuestion", "%1 rows are deleted already. They stay deleted; the rest of the file's rows are not "
                       "deleted."): "已删除 %1 行。这些行不会恢复；文件中其余的行不再删除。",
    # the preview's rows against the table (issue 28): what the chosen mode does with each shown row
    ("PreviewDialog", "%1 of the first %2 rows would fail: hover a red cell for the reason."):
        "前 %2 行中有 %1 行会失败：把鼠标停在红色单元格上可看原因。",
    ("PreviewDialog", "%1 of the first %2 rows would fail as already in the table: this mode adds new rows only."):
        "前 %2 行中有 %1 行已在表中，会失败：当前方式只新增行。",
    ("PreviewDialog", "%1 of the first %2 rows would fail as not in the table: this mode updates rows already in "
                      "the table only."):
        "前 %2 行中有 %1 行不在表中，会失败：当前方式只更新表中已有的行。",
    ("PreviewDialog", "%1 of the first %2 rows will be skipped: already in the table."):
        "前 %2 行中有 %1 行已在表中，将被跳过。",
    ("PreviewDialog", "%1 of the first %2 rows will update rows already in the table."):
        "前 %2 行中有 %1 行已在表中，将更新表中的这些行。",
    ("PreviewDialog", "%1 of the first %2 rows will change nothing: already in the table with these values."):
        "前 %2 行中有 %1 行已在表中且内容相同，不会有任何改变。",
    ("PreviewDialog", "Rows that fail go to the error file; the others still import."):
        "失败的行会写入错误文件，其余的行照常导入。",
    ("PreviewDialog", "Rows that fail go to the error file; the others still import, but with more than %1 of the "
                      "rows failing the import counts as failed (the rows that went in stay)."):
        "失败的行会写入错误文件，其余的行照常导入；但失败的行超过 %1 时，导入会判定为失败（已导入的行保留）。",
    ("PreviewDialog", "Rows that fail go to the error file; the others are still deleted, but with more than %1 of "
                      "the rows failing the delete counts as failed (the rows deleted stay deleted)."):
        "失败的行会写入错误文件，其余的行照常删除；但失败的行超过 %1 时，删除会判定为失败（已删除的行不会恢复）。",
    ("PreviewDialog", "The cells of the first %1 rows pass every check; looking the rows up in the table…"):
        "前 %1 行的单元格全部通过检查；正在表中查找这些行…",
    ("PreviewDialog", "Looking the rows up in the table…"): "正在表中查找这些行…",
    ("PreviewDialog", "Whether they are already in the table could not be checked: %1"):
        "无法检查这些行是否已在表中：%1",
    ("PreviewDialog", "Already in the table: this row will be skipped"): "已在表中：这一行将被跳过",
    ("PreviewDialog", "Already in the table: this row will update it"): "已在表中：将用这一行更新表中的记录",
    ("PreviewDialog", "Already in the table with these values: nothing will change"):
        "已在表中且内容相同：不会有任何改变",
    # Delete mode (issue 26): the file lists the keys of the rows to delete
    ("PreviewDialog", "Delete rows (the file lists their keys)"): "删除行（文件列出要删除的行的键）",
    ("PreviewDialog", "Make the table equal to the file (sync)"): "让表与文件一致（同步）",
    ("ChangePlanDialog", "&Apply the whole workbook"): "执行整个工作簿(&A)",
    ("ChangePlanDialog", "Import the workbook %1 now, every sheet written only as its own plan shows it (a row "
     "changed since is listed as an error)"):
        "现在导入工作簿 %1：每个工作表都只按它自己的计划写入（此后被改动的行列为错误）",
    ("DetailsPanel", "Change plan"): "变更计划",
    ("DetailsPanel", "Applied by task %1."): "已由任务 %1 执行。",
    # the change plan's counts as a sentence before what became of the plan, and the sentences' joint
    ("DetailsPanel", "%1."): "%1。",
    ("DetailsPanel", "%1 %2"): "%1%2",
    ("DetailsPanel", "Discarded: it can no longer be applied."): "已放弃：不能再执行。",
    ("DetailsPanel", "Applies the change plan of dry run %1."): "执行校验任务 %1 的变更计划。",
    ("Outcomes", "Applied by %1 — %2"): "已由 %1 执行 — %2",
    ("PreviewDialog", "All its rows"): "表中所有行",
    ("PreviewDialog", "Rows it may &delete:"): "可删除的行(&D)：",
    ("PreviewDialog", "The column whose value picks the rows a sync may delete"): "按哪一列的值选出同步可删除的行",
    ("PreviewDialog", "value"): "值",
    ("PreviewDialog", "The value the column holds in the rows a sync may delete"): "同步可删除的行在该列中的值",
    ("MainWindow", "all its rows"): "全部行",
    ("MainWindow", "Delete rows?"): "删除行？",
    ("MainWindow", "This sync would delete %1 rows of %2 (scope: %3): the rows the file lacks."):
        "这次同步将删除表 %2 的 %1 行（范围：%3），即文件里没有的行。",
    ("MainWindow", "The file's rows are added or updated as well. An undo puts every deleted row back. Queue it?"):
        "文件里的行也会新增或更新。撤销会把删除的每一行放回。要排队吗？",
    ("PreviewDialog", "%1 of the first %2 rows would fail as not in the table: there is no row to delete."):
        "前 %2 行中有 %1 行将失败：表中没有这一行，无从删除。",
    ("PreviewDialog", "%1 of the first %2 rows will delete their rows from the table."):
        "前 %2 行中有 %1 行将从表中删除对应的行。",
    ("PreviewDialog", "In the table: this row will be deleted"): "在表中：表中的这一行将被删除",
    ("PreviewDialog", "Ignored: a delete reads only the key's columns"): "忽略：删除只读取键列",
    ("UndoQuestion", "%1 rows it deleted will be put back."): "它删除的 %1 行将被放回。",
    ("Outcomes", "Done: %1 rows deleted"): "已完成：删除 %1 行",
    ("Outcomes", "Done: %1 of %2 deleted, 1 row with errors"): "已完成：删除 %1 行（共 %2 行），1 行有错误",
    ("Outcomes", "Done: %1 of %2 deleted, %3 rows with errors"): "已完成：删除 %1 行（共 %2 行），%3 行有错误",
    ("Outcomes", "Failed: %1 of %2 deleted, 1 row with errors"): "失败：已删除 %1 行（共 %2 行），1 行有错误",
    ("Outcomes", "Failed: %1 of %2 deleted, %3 rows with errors"): "失败：已删除 %1 行（共 %2 行），%3 行有错误",
    # Fix values (issue 25): a completion task that maps the values an import's enum columns refused
    ("ImportCatalog", "Fix values"): "修正取值",
    ("Outcomes", "Nothing fixed"): "没有修正任何行",
    ("Outcomes", "Nothing fixed: no row of %2 failed only for these values"):
        "没有修正任何行：%2 中没有只因这些取值而失败的行",
    ("Outcomes", "Nothing fixed: %3 rows of %2 were refused again"): "没有修正任何行：%2 的 %3 行再次被拒绝",
    ("Outcomes", "Fixed values: 1 row of %2 imported, %3 refused again"):
        "已修正取值：%2 导入了 1 行，%3 行再次被拒绝",
    ("Outcomes", "Fixed values: %1 rows of %2 imported, %3 refused again"):
        "已修正取值：%2 导入了 %1 行，%3 行再次被拒绝",
    ("Outcomes", "Fixed values: 1 row of %2 imported"): "已修正取值：%2 导入了 1 行",
    ("Outcomes", "Fixed values: %1 rows of %2 imported"): "已修正取值：%2 导入了 %1 行",
    ("TaskActions", "Fix &values…"): "修正取值(&V)…",
    ("TaskActions", "Choose the right value for each value this import refused (a level spelt wrong, say), then "
                    "import its rows that failed only for them"):
        "为这次导入不接受的每个取值（例如写错的等级）选择正确的值，然后导入只因这些取值而失败的行",
    ("TaskActions", "Fix values"): "修正取值",
    ("ValueFixDialog", "Fix values of %1"): "修正 %1 的取值",
    ("ValueFixDialog", "%1 rows of this import failed for a value their column does not allow. Choose the right "
                       "value for each; a value left at “%2” is not changed, its rows stay in the error file."):
        "这次导入有 %1 行因为取值不在该列允许的范围内而失败。请为每个取值选择正确的值；"
        "保留为%2的取值不会修改，它的行仍留在错误文件里。",
    ("ValueFixDialog", "Column"): "列",
    ("ValueFixDialog", "Value in the file"): "文件中的值",
    ("ValueFixDialog", "Rows"): "行数",
    ("ValueFixDialog", "Change it to"): "改为",
    ("ValueFixDialog", "Change %1 to"): "把 %1 改为",
    ("ValueFixDialog", "&Remember for next time, in the profile:"): "记住，下次自动使用，保存到映射配置(&R)：",
    ("ValueFixDialog", "Save these mappings into the profile as its new version: the next import with it takes "
                       "these values as the right ones"):
        "把这些对应关系存为映射配置的新版本：下次使用它导入时，这些取值会自动改为正确的值",
    ("ValueFixDialog", "&Fix the rows"): "修正这些行(&F)",
    ("ValueFixDialog", "Cancel"): "取消",
    ("ValueFixDialog", "(leave as is)"): "（保持不变）",
    # the Feeds view (issue 25): "监视文件夹" is the word the catalog's feed texts use for a feed
    ("DetailsPanel", "Feed"): "监视文件夹",
    ("TaskTableModel", "%1 · feed %2"): "%1 · 监视文件夹 %2",
    ("WindowMenus", "&Feeds…"): "监视文件夹(&F)…",
    ("WindowMenus", "Watched folders: each file dropped into one is imported, then moved aside"):
        "监视文件夹：放进文件夹的每个文件都会导入，然后移到一旁",
    ("FeedDialog", "(none)"): "（无）",
    ("FeedDialog", "Type the folder's whole path (e.g. D:\\Imports\\Bank or /home/clerk/imports), or choose it with "
                   "Choose…."):
        "请输入文件夹的完整路径（例如 D:\\Imports\\Bank 或 /home/clerk/imports），或用“选择…”选择它。",
    ("FeedDialog", "Choose the folder to watch"): "选择要监视的文件夹",
    ("FeedDialog", "The folder cannot be read"): "无法读取这个文件夹",
    ("FeedDialog", "Choose a folder to see which files match"): "选择文件夹后，这里显示现在有哪些文件符合",
    ("FeedDialog", "The pattern names no files (e.g. *.csv;*.xlsx)"): "文件名规则没有指定任何文件（例如 *.csv;*.xlsx）",
    ("FeedDialog", "A network folder: checked when the feed runs"): "网络文件夹：运行时再查看",
    ("FeedDialog", "No file matches now"): "现在没有符合的文件",
    ("FeedDialog", "1 file matches now"): "现在有 1 个文件符合",
    ("FeedDialog", "%1 files match now"): "现在有 %1 个文件符合",
    ("FeedDialog", "Times of day are written HH:MM, separated by commas (e.g. 07:30,13:00)"):
        "时间写作 时:分，用逗号分隔（例如 07:30,13:00）",
    ("FeedDialog", "Give the feed a name."): "请给监视文件夹起个名称。",
    ("FeedDialog", "Choose the folder to watch."): "请选择要监视的文件夹。",
    ("FeedDialog", "There is no import type to choose."): "没有可选的导入类型。",
    ("FeedDialog", "Edit feed %1"): "修改监视文件夹 %1",
    ("FeedDialog", "Add a feed"): "添加监视文件夹",
    ("FeedDialog", "&Name:"): "名称(&N)：",
    ("FeedDialog", "&Folder:"): "文件夹(&F)：",
    ("FeedDialog", "Import &type:"): "导入类型(&T)：",
    ("FeedDialog", "&Profile:"): "映射配置(&P)：",
    ("FeedDialog", "&Rows already in the table:"): "表中已有的行(&R)：",
    ("FeedDialog", "Files to ta&ke:"): "要导入的文件(&K)：",
    ("FeedDialog", "&Settle time (seconds):"): "稳定时间（秒）(&S)：",
    ("FeedDialog", "&When to look:"): "查看时间(&W)：",
    ("FeedDialog", "Choose…"): "选择…",
    ("FeedDialog", "Add new rows only (a row already in the table is an error)"): "只新增（表中已有的行记为错误）",
    ("FeedDialog", "Add new, skip existing"): "只新增，跳过已有的行",
    ("FeedDialog", "Update existing (only rows already in the table)"): "只更新（仅限表中已有的行）",
    ("FeedDialog", "Add new and update existing"): "新增并更新已有的行",
    ("FeedDialog", "Names to take, separated by ;, whatever their case (e.g. *.csv;*.xlsx). Hidden files, Office "
                   "lock files and downloads under way are never taken."):
        "要导入的文件名规则，用 ; 分隔，不区分大小写（例如 *.csv;*.xlsx）。隐藏文件、Office 锁定文件和尚未下载完的文件"
        "永远不会导入。",
    ("FeedDialog", "A file is taken once its size and time stayed the same this long (a file still being copied "
                   "is never taken half-written)"):
        "文件的大小和修改时间保持不变这么久之后才导入（正在复制的文件不会只导入一半）",
    ("FeedDialog", "Every"): "每隔",
    ("FeedDialog", "seconds"): "秒",
    ("FeedDialog", "At these times of the day:"): "每天在这些时间：",
    ("FeedDialog", "One file at a time, the oldest first"): "一次一个文件，最早的先导入",
    ("FeedDialog", "Leave the files in the folder (do not move them after their import)"):
        "文件留在文件夹里（导入后不移走）",
    ("FeedsTableModel", "Name"): "名称",
    ("FeedsTableModel", "Folder"): "文件夹",
    ("FeedsTableModel", "Type"): "类型",
    ("FeedsTableModel", "Profile"): "映射配置",
    ("FeedsTableModel", "State"): "状态",
    ("FeedsTableModel", "Last scan"): "上次查看",
    ("FeedsTableModel", "Today: imported / failed / duplicates"): "今天：已导入 / 失败 / 重复",
    ("FeedsTableModel", "Waiting"): "等待中",
    ("FeedsTableModel", "Next run"): "下次查看",
    ("FeedsTableModel", "(none)"): "（无）",
    ("FeedsTableModel", "never"): "从未",
    ("FeedsTableModel", "Scanning now"): "正在查看",
    ("FeedsTableModel", "paused"): "已暂停",
    ("FeedsTableModel", "now"): "现在",
    ("FeedsTableModel", "when a desk runs it"): "等待电脑运行",
    ("FeedsTableModel", "%1\nPattern: %2"): "%1\n文件名规则：%2",
    ("FeedsTableModel", "Today: %1 imported, %2 failed, %3 duplicates (not imported again)"):
        "今天：已导入 %1 个，失败 %2 个，重复 %3 个（没有再次导入）",
    ("FeedsTableModel", "Files in its folder that wait for the feed to be resumed, and files seen and not ended yet"):
        "文件夹中等待恢复后导入的文件，以及已发现但尚未处理完的文件",
    ("FeedsTableModel", "Files seen and not ended yet: settling, queued or being moved"):
        "已发现但尚未处理完的文件：等待稳定、排队导入或正在移走",
    ("FeedsWindow", "The feeds could not be read: %1"): "无法读取监视文件夹：%1",
    ("FeedsWindow", "Feeds"): "监视文件夹",
    ("FeedsWindow", "Remove the feed “%1”? It stops watching %2. Its import tasks stay in the task list, and the "
                    "files in its folder stay where they are."):
        "移除监视文件夹“%1”？将不再监视 %2。它的导入任务仍留在任务列表中，文件夹里的文件也留在原处。",
    ("FeedsWindow", "Remove feed"): "移除监视文件夹",
    ("FeedsWindow", "Remove"): "移除",
    ("FeedsWindow", "The folder %1 could not be opened."): "无法打开文件夹 %1。",
    ("FeedsWindow", "Feeds: watched folders"): "监视文件夹",
    ("FeedsWindow", "&Add…"): "添加(&A)…",
    ("FeedsWindow", "&Edit…"): "修改(&E)…",
    ("FeedsWindow", "&Run now"): "立即查看(&R)",
    ("FeedsWindow", "&Pause"): "暂停(&P)",
    ("FeedsWindow", "Res&ume"): "恢复(&U)",
    ("FeedsWindow", "Re&move…"): "移除(&M)…",
    ("FeedsWindow", "Open &folder"): "打开文件夹(&F)",
    ("FeedsWindow", "Watch a folder: each file dropped into it is imported once, then moved to imported, failed "
                    "or duplicates"):
        "监视一个文件夹：放进去的每个文件导入一次，然后移到 imported、failed 或 duplicates 文件夹",
    ("FeedsWindow", "Look at the folder now"): "现在就查看文件夹",
    ("FeedsWindow", "No feeds yet. Add one to import each file dropped into a folder."):
        "还没有监视文件夹。添加一个，放进文件夹的每个文件都会自动导入。",
    # a feed's imports in the window and the tray (ui/feed_notices.py), its mail server (Settings)
    ("FeedNotices", "Feed %1: %2 files with errors"): "监视文件夹 %1：%2 个文件有错误",
    ("FeedNotices", "Feed %1: %2 could not be imported (%3 rows imported, %4 with errors)"):
        "监视文件夹 %1：%2 没能导入（已导入 %3 行，%4 行有错误）",
    ("FeedNotices", "Feed %1: %2 was imported with errors (%3 rows imported, %4 with errors)"):
        "监视文件夹 %1：%2 已导入，但有错误（已导入 %3 行，%4 行有错误）",
    ("FeedNotices", ": %1"): "：%1",
    ("FeedNotices", "Open error file"): "打开错误文件",
    ("FeedNotices", "Show the task"): "显示任务",
    ("FeedNotices", "Feed %1"): "监视文件夹 %1",
    ("SettingsDialog", "Mail &server:"): "邮件服务器(&S)：",
    ("SettingsDialog", "S&end a test mail to the sender"): "给发件人地址发一封测试邮件(&E)",
    ("SettingsDialog", "Fill in the mail server and the sender address first."): "请先填写邮件服务器和发件人地址。",
    ("SettingsDialog", "Sending a test mail to %1…"): "正在给 %1 发送测试邮件…",
    ("SettingsDialog", "A test mail was sent to %1."): "测试邮件已发给 %1。",
    ("SettingsDialog", "The test mail could not be sent: %1"): "测试邮件没能发出：%1",
    ("SettingsDialog", "P&ort:"): "端口(&O)：",
    ("SettingsDialog", "Securit&y:"): "加密方式(&Y)：",
    ("SettingsDialog", "Mail &user:"): "邮件用户名(&U)：",
    ("SettingsDialog", "Mail pass&word:"): "邮件密码(&W)：",
    ("SettingsDialog", "Se&nder address:"): "发件人地址(&N)：",
    ("SettingsDialog", "Attach error files up to (&MB):"): "错误文件附件上限（MB）(&M)：",
    ("SettingsDialog", "usual for the security"): "按加密方式的常用端口",
    ("SettingsDialog", "empty: feeds send no mail"): "留空：监视文件夹不发邮件",
    ("SettingsDialog", "empty: the server takes mail without signing in"): "留空：发信无需登录",
    ("SettingsDialog", "None"): "不加密",
    ("SettingsDialog", "STARTTLS"): "STARTTLS",
    ("SettingsDialog", "SSL/TLS"): "SSL/TLS",
    ("SettingsDialog", "Ma&il: the server a feed's mail goes through"): "邮件：监视文件夹发信用的服务器(&I)",
    ("SettingsDialog", "A feed mails its addresses when a file's import fails or has rows with errors. The mail "
                       "server applies to tasks that start from now on."):
        "文件导入失败或有出错的行时，监视文件夹会发邮件给设定的地址。邮件服务器的设置对此后开始的任务生效。",
    # the change plan of a dry run (issue 26): "校验" as the window calls a dry run ("仅校验")
    ("ChangePlanDialog", "Reading the plan…"): "正在读取变更计划…",
    ("ChangePlanDialog", "This plan is incomplete: its dry run stopped before the end. Run the dry run again."):
        "这份变更计划不完整：校验任务没有运行到最后。请重新校验。",
    ("ChangePlanDialog", "This plan was already applied by task %1."): "这份变更计划已由任务 %1 执行。",
    ("ChangePlanDialog", "The plan of %1 is gone (it was discarded, or its results folder was cleaned up). "
                         "Run the dry run again to see its changes."):
        "%1 的变更计划已不存在（已被放弃，或结果文件夹已被清理）。请重新校验以查看变更。",
    ("ChangePlanDialog", "The plan of %1 cannot be read: its file is damaged. Run the dry run again."):
        "%1 的变更计划无法读取：文件已损坏。请重新校验。",
    ("ChangePlanDialog", "All"): "全部",
    ("ChangePlanDialog", "Insert"): "新增",
    ("ChangePlanDialog", "Update"): "更新",
    ("ChangePlanDialog", "Delete"): "删除",
    ("ChangePlanDialog", "Skip"): "跳过",
    ("ChangePlanDialog", "Fail"): "失败",
    ("ChangePlanDialog", "The plan's rows could not be read: %1"): "变更计划的行无法读取：%1",
    ("ChangePlanDialog", "Queueing the import of these changes…"): "正在提交这些变更的导入…",
    ("ChangePlanDialog", "Discard this plan?"): "放弃这份变更计划？",
    ("ChangePlanDialog", "Discard the plan of dry run %1? It can no longer be applied; its change file stays as a "
                         "record."):
        "放弃校验任务 %1 的变更计划？放弃后就不能再执行它；变更文件会保留作为记录。",
    ("ChangePlanDialog", "&Discard the plan"): "放弃变更计划(&D)",
    ("ChangePlanDialog", "&Keep it"): "保留(&K)",
    ("ChangePlanDialog", "Discarding the plan…"): "正在放弃变更计划…",
    ("ChangePlanDialog", "Changes of dry run %1"): "校验任务 %1 的变更",
    ("ChangePlanDialog", "&Show:"): "显示(&S)：",
    ("ChangePlanDialog", "&Apply these changes"): "执行这些变更(&A)",
    ("ChangePlanDialog", "Import the same file now; each row is written only as this plan shows it (a row changed "
                         "since is listed as an error)"):
        "现在导入同一个文件；每一行只按这份计划写入（之后又被修改过的行会列为错误）",
    ("ChangePlanDialog", "D&iscard"): "放弃(&I)",
    ("ChangePlanDialog", "Throw this plan away: it can no longer be applied"): "丢弃这份变更计划：之后不能再执行它",
    ("ChangePlanDialog", "&Close"): "关闭(&C)",
    ("ChangePlanDialog", "Planned rows"): "计划变更的行",
    ("ChangePlanDialog", "Rows to show"): "显示哪些行",
    ("ChangePlanDialog", "What dry run %1 of %2 (%3) would change. An update shows the values it changes (the old "
                         "value in the tooltip); unchanged rows are counted, not listed."):
        "校验任务 %1（%2，%3）将做的变更。更新的行只显示要改的值（原值见悬停提示）；不变的行只计数，不列出。",
    ("ChangePlanDialog", "%1 to insert"): "新增 %1 行",
    ("ChangePlanDialog", "%1 to update"): "更新 %1 行",
    ("ChangePlanDialog", "%1 to delete"): "删除 %1 行",
    ("ChangePlanDialog", "%1 unchanged"): "不变 %1 行",
    ("ChangePlanDialog", "%1 skipped"): "跳过 %1 行",
    ("ChangePlanDialog", "%1 failing"): "失败 %1 行",
    ("ChangePlanDialog", "No rows: the file had nothing to import."): "没有行：文件里没有要导入的内容。",
    ("ChangePlanDialog", "1 row: %1"): "共 1 行：%1",
    ("ChangePlanDialog", "%1 rows: %2"): "共 %1 行：%2",
    ("MainWindow", "Check &first (dry run)"): "先校验(&F)",
    ("MainWindow", "The plan of %1 was discarded."): "%1 的变更计划已放弃。",
    ("PlanTableModel", "A row of the table that the file lacks: the sync deletes it"):
        "表中有而文件里没有的行：同步会删除它",
    ("PlanTableModel", "Before: %1"): "原值：%1",
    ("PlanTableModel", "(empty)"): "（空）",
    ("TaskActions", "Review the c&hanges…"): "查看变更(&H)…",
    ("TaskActions", "See each row this dry run would insert, update or delete, then apply exactly those changes "
                    "or discard them"):
        "查看这次校验将新增、更新或删除的每一行，然后原样执行这些变更，或者放弃",
    ("TaskActions", "Review the changes…"): "查看变更…",
    ("TaskNotices", "Review the changes…"): "查看变更…",
    # team mode: an administrator's Team page in Settings (ui/dialogs/team.py, docs/TEAM.md)
    ("SettingsDialog", "&General"): "常规(&G)",
    ("SettingsDialog", "&Team"): "团队(&T)",
    ("TeamPage", "administrator"): "管理员",
    ("TeamPage", "clerk"): "职员",
    ("TeamPage", "%1, no login yet"): "%1，尚无登录",
    ("TeamPage", "read"): "查看",
    ("TeamPage", "insert"): "新增",
    ("TeamPage", "update"): "修改",
    ("TeamPage", "delete"): "删除",
    ("TeamPage", "Team"): "团队",
    ("TeamPage", "The database's logins and what each may change, per import type. Changes here apply at once "
                 "on the database server."):
        "数据库的各个账号，以及每个账号按导入类型能更改什么。这里的更改立即在数据库服务器上生效。",
    ("TeamPage", "Login"): "账号",
    ("TeamPage", "Role"): "角色",
    ("TeamPage", "Logins"): "账号列表",
    ("TeamPage", "&Add login…"): "添加账号(&A)…",
    ("TeamPage", "&Rights…"): "权限(&R)…",
    ("TeamPage", "Re&fresh"): "刷新(&F)",
    ("AddLoginDialog", "Add a login"): "添加账号",
    ("AddLoginDialog", "&Name:"): "名称(&N)：",
    ("AddLoginDialog", "Name"): "名称",
    ("AddLoginDialog", "An a&dministrator (sees and manages every clerk's tasks)"):
        "管理员(&D)（查看并管理所有职员的任务）",
    ("AddLoginDialog", "&Type the password instead of a generated one"): "自己输入密码，不用生成的密码(&T)",
    ("AddLoginDialog", "&Password:"): "密码(&P)：",
    ("AddLoginDialog", "Password"): "密码",
    ("AddLoginDialog", "A name that owns tasks already (no login yet) gets its login: its tasks are kept. A "
                       "generated password is shown once, to give to its clerk."):
        "已经拥有任务的名称（尚无登录）会得到自己的账号，任务都保留。生成的密码只显示一次，请交给对应的职员。",
    ("PasswordDialog", "The new password"): "新密码",
    ("PasswordDialog", "%1 was added."): "已添加 %1。",
    ("PasswordDialog", "%1 may log in now (its tasks were kept)."): "%1 现在可以登录了（任务都已保留）。",
    ("PasswordDialog", "Its password is shown only this once: copy it and give it to its clerk."):
        "密码只显示这一次：请复制下来交给对应的职员。",
    ("PasswordDialog", "Password"): "密码",
    ("PasswordDialog", "&Copy"): "复制(&C)",
    ("RightsDialog", "Rights of %1"): "%1 的权限",
    ("RightsDialog", "What %1 may do with each import type's table. Inserting, updating or deleting includes "
                     "reading; a type it may not read is not in its lists."):
        "%1 对每种导入类型的表能做什么。新增、修改或删除都包含查看；不能查看的类型不会出现在其列表中。",
    ("RightsDialog", "Read"): "查看",
    ("RightsDialog", "Insert"): "新增",
    ("RightsDialog", "Update"): "修改",
    ("RightsDialog", "Delete"): "删除",
    # issue 27: a task's files on another desk of its owner, the workbook preview's rights
    ("TaskActions", "Fetching the file of %1 from the database…"): "正在从数据库取回 %1 的文件…",
    ("TaskActions", "The file of %1 could not be fetched from the database: %2"): "没能从数据库取回 %1 的文件：%2",
    ("TaskActions", "The change file of %1 is gone."): "%1 的变更文件已不存在。",
    ("ChangePlanDialog", "The plan of %1 is kept on the desk %2, where its dry run ran: review it and apply it "
                         "there. Here you can open its change file, which lists the same changes row by row."):
        "%1 的变更计划保存在运行这次仅校验的电脑 %2 上：请在那台电脑上审阅并执行。"
        "在这里可以打开它的变更文件，里面逐行列出同样的变更。",
    ("ChangePlanDialog", "&Open the change file"): "打开变更文件(&O)",
    # a check over the failed-rows limit: its plan is shown, not applied
    ("ChangePlanDialog", "Too many rows would fail: these changes cannot be applied. Fix the file and check it "
                         "again."): "失败的行太多：这些变更不能执行。请修正文件后再校验一次。",
    ("ChangePlanDialog", "Open the dry run's change file (every row it would insert, update or delete) in the "
                         "spreadsheet application"):
        "在电子表格程序中打开这次仅校验的变更文件（它将新增、更新或删除的每一行）",
    ("WorkbookDialog", "%1 (not allowed)"): "%1（无权导入）",
    ("WorkbookDialog", "Cannot queue: %1"): "无法排队导入：%1",
    # a clerk's tryout: the preview says which rows will wait for a name their reference table lacks
    ("PreviewDialog", "1 row names a %2 not in the table yet: it will wait until the name is added."):
        "1 行的%2还不在表中：补上名称前，这一行会等待。",
    ("PreviewDialog", "%1 rows name a %2 not in the table yet: they will wait until the names are added."):
        "%1 行的%2还不在表中：补上名称前，这些行会等待。",
    ("PreviewDialog", "This row will wait until the name is added"): "补上名称前，这一行会等待",
    ("PlanTableModel", "This row will wait until the name is added"): "补上名称前，这一行会等待",
}  # fmt: skip

Messages = list[tuple[str, list[str]]]  # (context, sources in code order)


def xml_text(text: str) -> str:
    """Escaped as pyside6-lupdate writes it (quotes too), so a rerun leaves the files unchanged."""
    return escape(text, {"'": "&apos;", '"': "&quot;"})


def extract() -> Messages:
    """Every source text of the window, as pyside6-lupdate finds it (contexts sorted, texts in order)."""
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    sources = sorted(str(p) for p in (ROOT / "desktop_app" / "ui").rglob("*.py"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "all.ts"
        subprocess.run([str(lupdate), "-silent", "-no-obsolete", "-locations", "none", *sources, "-ts", str(out)],
                       check=True)  # fmt: skip
        root = ET.parse(out).getroot()
    return [(c.findtext("name", ""), [m.findtext("source", "") for m in c.iter("message")])
            for c in root.iter("context")]  # fmt: skip


def existing(path: Path) -> dict[tuple[str, str], str]:
    if not path.exists():
        return {}
    root = ET.parse(path).getroot()
    found = {}
    for context in root.iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is not None and translation.text and translation.get("type") != "unfinished":
                found[(name, message.findtext("source", ""))] = translation.text
    return found


def render(language: str, messages: Messages, translations: dict[tuple[str, str], str]) -> str:
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f'<TS version="2.1" language="{language}">']
    for context, sources in messages:
        lines += ["<context>", f"    <name>{xml_text(context)}</name>"]
        for source in sources:
            text = translations.get((context, source))
            lines += ["    <message>", f"        <source>{xml_text(source)}</source>"]
            if text:
                lines.append(f"        <translation>{xml_text(text)}</translation>")
            else:
                lines.append('        <translation type="unfinished"></translation>')
            lines.append("    </message>")
        lines.append("</context>")
    lines.append("</TS>")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    messages = extract()
    status = 0
    for suffix, language in LOCALES.items():
        path = I18N / f"batchdesk_{suffix}.ts"
        translations = existing(path) if suffix != "en" else {}
        if suffix == "zh_CN":
            for context, sources in messages:
                for source in sources:
                    key = (context, source)
                    if key not in translations and key in ZH:
                        translations[key] = ZH[key]
            missing = [(c, s) for c, sources in messages for s in sources if (c, s) not in translations]
            for context, source in missing:
                sys.stderr.write(f"no Chinese for {context}: {source!r}\n")
            status = status or (1 if missing else 0)
        text = render(language, messages, translations)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        if check:
            sys.stderr.write(f"{path.relative_to(ROOT)} is not up to date\n")
            status = 1
        else:
            path.write_text(text, encoding="utf-8")
            sys.stdout.write(f"wrote {path.relative_to(ROOT)}\n")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
