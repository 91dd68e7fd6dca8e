<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About BatchDesk</source>
        <translation>关于 BatchDesk</translation>
    </message>
    <message>
        <source>Imports and exports spreadsheets as background tasks: queue a file, get a task number at once, and open the error file when rows fail.</source>
        <translation>以后台任务导入和导出电子表格：提交文件后立即得到任务号；有行失败时可打开错误文件查看原因。</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <source>Results folder:</source>
        <translation>结果文件夹：</translation>
    </message>
    <message>
        <source>Log folder:</source>
        <translation>日志文件夹：</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开%1</translation>
    </message>
    <message>
        <source>The system could not open %1. Copy its path from the field and open it yourself.</source>
        <translation>系统无法打开 %1。请从上面的输入框复制它的路径，自己打开。</translation>
    </message>
</context>
<context>
    <name>AddLoginDialog</name>
    <message>
        <source>Add a login</source>
        <translation>添加账号</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>An a&amp;dministrator (sees and manages every clerk&apos;s tasks)</source>
        <translation>管理员(&amp;D)（查看并管理所有职员的任务）</translation>
    </message>
    <message>
        <source>&amp;Type the password instead of a generated one</source>
        <translation>自己输入密码，不用生成的密码(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>A name that owns tasks already (no login yet) gets its login: its tasks are kept. A generated password is shown once, to give to its clerk.</source>
        <translation>已经拥有任务的名称（尚无登录）会得到自己的账号，任务都保留。生成的密码只显示一次，请交给对应的职员。</translation>
    </message>
</context>
<context>
    <name>AddNamesQuestion</name>
    <message>
        <source>Add to the master data?</source>
        <translation>添加到主数据？</translation>
    </message>
    <message>
        <source>Add 1 name to the master data?</source>
        <translation>将 1 个名称添加到主数据？</translation>
    </message>
    <message>
        <source>Add %1 names to the master data?</source>
        <translation>将 %1 个名称添加到主数据？</translation>
    </message>
    <message>
        <source>&amp;Add 1 name</source>
        <translation>添加 1 个名称(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Add %1 names</source>
        <translation>添加 %1 个名称(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Do not add</source>
        <translation>不添加(&amp;D)</translation>
    </message>
    <message>
        <source>%3 (1 new name): %4</source>
        <translation>%3（1 个新名称）：%4</translation>
    </message>
    <message>
        <source>%3 (%1 new names): %4</source>
        <translation>%3（%1 个新名称）：%4</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>, … (%1 more)</source>
        <translation>，…（另有 %1 个）</translation>
    </message>
    <message>
        <source>This completes up to 1 row of task %2 waiting on them.</source>
        <translation>这将补全任务 %2 中等待它们的最多 1 行。</translation>
    </message>
    <message>
        <source>This completes up to %1 rows of task %2 waiting on them.</source>
        <translation>这将补全任务 %2 中等待它们的最多 %1 行。</translation>
    </message>
    <message>
        <source>The names are added to the table for everyone; undoing the import does not remove them.</source>
        <translation>这些名称会添加到表中，所有人可见；撤销导入不会删除它们。</translation>
    </message>
</context>
<context>
    <name>CancelQuestion</name>
    <message>
        <source>Cancel task %1 (%2)?</source>
        <translation>要取消任务 %1（%2）吗？</translation>
    </message>
    <message>
        <source>Cancel task %1?</source>
        <translation>要取消任务 %1 吗？</translation>
    </message>
    <message>
        <source>Cancel the task?</source>
        <translation>取消任务？</translation>
    </message>
    <message>
        <source>Cancel the &amp;task</source>
        <translation>取消任务(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Keep running</source>
        <translation>继续运行(&amp;K)</translation>
    </message>
    <message>
        <source>It has not started yet: nothing is imported.</source>
        <translation>任务还没有开始：尚未导入任何数据。</translation>
    </message>
    <message>
        <source>The export stops; no file is written.</source>
        <translation>导出将停止，不会生成文件。</translation>
    </message>
    <message>
        <source>The task stops where it is.</source>
        <translation>任务将在当前位置停止。</translation>
    </message>
    <message>
        <source>It only checks the file: nothing was imported.</source>
        <translation>这是仅校验任务：没有导入任何数据。</translation>
    </message>
    <message>
        <source>%1 of %2 rows are deleted already. They stay deleted; the rest of the file&apos;s rows are not deleted.</source>
        <translation>已删除 %1 行（共 %2 行）。这些行不会恢复；文件中其余的行不再删除。</translation>
    </message>
    <message>
        <source>%1 rows are deleted already. They stay deleted; the rest of the file&apos;s rows are not deleted.</source>
        <translation>已删除 %1 行。这些行不会恢复；文件中其余的行不再删除。</translation>
    </message>
    <message>
        <source>%1 of %2 rows are in. They stay in the table; the rest of the file is not imported.</source>
        <translation>已导入 %1 行（共 %2 行）。这些行会保留在表中；文件中其余的行不再导入。</translation>
    </message>
    <message>
        <source>%1 rows are in. They stay in the table; the rest of the file is not imported.</source>
        <translation>已导入 %1 行。这些行会保留在表中；文件中其余的行不再导入。</translation>
    </message>
</context>
<context>
    <name>ChangePlanDialog</name>
    <message>
        <source>Too many rows would fail: these changes cannot be applied. Fix the file and check it again.</source>
        <translation>失败的行太多：这些变更不能执行。请修正文件后再校验一次。</translation>
    </message>
    <message>
        <source>Reading the plan…</source>
        <translation>正在读取变更计划…</translation>
    </message>
    <message>
        <source>This plan is incomplete: its dry run stopped before the end. Run the dry run again.</source>
        <translation>这份变更计划不完整：校验任务没有运行到最后。请重新校验。</translation>
    </message>
    <message>
        <source>This plan was already applied by task %1.</source>
        <translation>这份变更计划已由任务 %1 执行。</translation>
    </message>
    <message>
        <source>The plan of %1 is gone (it was discarded, or its results folder was cleaned up). Run the dry run again to see its changes.</source>
        <translation>%1 的变更计划已不存在（已被放弃，或结果文件夹已被清理）。请重新校验以查看变更。</translation>
    </message>
    <message>
        <source>The plan of %1 cannot be read: its file is damaged. Run the dry run again.</source>
        <translation>%1 的变更计划无法读取：文件已损坏。请重新校验。</translation>
    </message>
    <message>
        <source>The plan of %1 is kept on the desk %2, where its dry run ran: review it and apply it there. Here you can open its change file, which lists the same changes row by row.</source>
        <translation>%1 的变更计划保存在运行这次仅校验的电脑 %2 上：请在那台电脑上审阅并执行。在这里可以打开它的变更文件，里面逐行列出同样的变更。</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>The plan&apos;s rows could not be read: %1</source>
        <translation>变更计划的行无法读取：%1</translation>
    </message>
    <message>
        <source>Queueing the import of these changes…</source>
        <translation>正在提交这些变更的导入…</translation>
    </message>
    <message>
        <source>Discard this plan?</source>
        <translation>放弃这份变更计划？</translation>
    </message>
    <message>
        <source>Discard the plan of dry run %1? It can no longer be applied; its change file stays as a record.</source>
        <translation>放弃校验任务 %1 的变更计划？放弃后就不能再执行它；变更文件会保留作为记录。</translation>
    </message>
    <message>
        <source>&amp;Discard the plan</source>
        <translation>放弃变更计划(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Keep it</source>
        <translation>保留(&amp;K)</translation>
    </message>
    <message>
        <source>Discarding the plan…</source>
        <translation>正在放弃变更计划…</translation>
    </message>
    <message>
        <source>Changes of dry run %1</source>
        <translation>校验任务 %1 的变更</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Apply the whole workbook</source>
        <translation>执行整个工作簿(&amp;A)</translation>
    </message>
    <message>
        <source>Import the workbook %1 now, every sheet written only as its own plan shows it (a row changed since is listed as an error)</source>
        <translation>现在导入工作簿 %1：每个工作表都只按它自己的计划写入（此后被改动的行列为错误）</translation>
    </message>
    <message>
        <source>&amp;Apply these changes</source>
        <translation>执行这些变更(&amp;A)</translation>
    </message>
    <message>
        <source>Import the same file now; each row is written only as this plan shows it (a row changed since is listed as an error)</source>
        <translation>现在导入同一个文件；每一行只按这份计划写入（之后又被修改过的行会列为错误）</translation>
    </message>
    <message>
        <source>D&amp;iscard</source>
        <translation>放弃(&amp;I)</translation>
    </message>
    <message>
        <source>Throw this plan away: it can no longer be applied</source>
        <translation>丢弃这份变更计划：之后不能再执行它</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Open the change file</source>
        <translation>打开变更文件(&amp;O)</translation>
    </message>
    <message>
        <source>Open the dry run&apos;s change file (every row it would insert, update or delete) in the spreadsheet application</source>
        <translation>在电子表格程序中打开这次仅校验的变更文件（它将新增、更新或删除的每一行）</translation>
    </message>
    <message>
        <source>Planned rows</source>
        <translation>计划变更的行</translation>
    </message>
    <message>
        <source>Rows to show</source>
        <translation>显示哪些行</translation>
    </message>
    <message>
        <source>What dry run %1 of %2 (%3) would change. An update shows the values it changes (the old value in the tooltip); unchanged rows are counted, not listed.</source>
        <translation>校验任务 %1（%2，%3）将做的变更。更新的行只显示要改的值（原值见悬停提示）；不变的行只计数，不列出。</translation>
    </message>
    <message>
        <source>%1 to insert</source>
        <translation>新增 %1 行</translation>
    </message>
    <message>
        <source>%1 to update</source>
        <translation>更新 %1 行</translation>
    </message>
    <message>
        <source>%1 to delete</source>
        <translation>删除 %1 行</translation>
    </message>
    <message>
        <source>%1 unchanged</source>
        <translation>不变 %1 行</translation>
    </message>
    <message>
        <source>%1 skipped</source>
        <translation>跳过 %1 行</translation>
    </message>
    <message>
        <source>%1 failing</source>
        <translation>失败 %1 行</translation>
    </message>
    <message>
        <source>No rows: the file had nothing to import.</source>
        <translation>没有行：文件里没有要导入的内容。</translation>
    </message>
    <message>
        <source>1 row: %1</source>
        <translation>共 1 行：%1</translation>
    </message>
    <message>
        <source>%1 rows: %2</source>
        <translation>共 %1 行：%2</translation>
    </message>
</context>
<context>
    <name>Desk</name>
    <message>
        <source>Template saved: %1</source>
        <translation>模板已保存：%1</translation>
    </message>
    <message>
        <source>The template could not be saved: %1</source>
        <translation>无法保存模板：%1</translation>
    </message>
    <message>
        <source>Remembered header mappings are now profiles for the team: %1</source>
        <translation>以前记住的表头对应关系已转为团队映射配置：%1</translation>
    </message>
    <message>
        <source>BatchDesk</source>
        <translation>BatchDesk</translation>
    </message>
    <message>
        <source>Stopping the running tasks; they continue at the next start…</source>
        <translation>正在停止运行中的任务；下次启动时会从中断处继续…</translation>
    </message>
</context>
<context>
    <name>DetailsPane</name>
    <message>
        <source>Task details</source>
        <translation>任务详情</translation>
    </message>
    <message>
        <source>Close the details</source>
        <translation>关闭详情</translation>
    </message>
    <message>
        <source>&amp;Details panel</source>
        <translation>详情面板(&amp;D)</translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <source>Loading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>(no log lines)</source>
        <translation>（没有日志）</translation>
    </message>
    <message>
        <source> (cancel requested)</source>
        <translation>（已请求取消）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>attempt %1, retries %2 of %4, recoveries %3</source>
        <translation>第 %1 次执行，重试 %2 次（最多 %4 次），恢复 %3 次</translation>
    </message>
    <message>
        <source>%1 processed of %2, %3 succeeded, %4 failed</source>
        <translation>已处理 %1 行（共 %2 行），成功 %3，失败 %4</translation>
    </message>
    <message>
        <source>%1 processed so far, %3 succeeded, %4 failed</source>
        <translation>已处理 %1 行，成功 %3，失败 %4</translation>
    </message>
    <message>
        <source>%1 total, %2 succeeded, %3 failed</source>
        <translation>共 %1 行，成功 %2，失败 %3</translation>
    </message>
    <message>
        <source>Applied by task %1.</source>
        <translation>已由任务 %1 执行。</translation>
    </message>
    <message>
        <source>Discarded: it can no longer be applied.</source>
        <translation>已放弃：不能再执行。</translation>
    </message>
    <message>
        <source>Applies the change plan of dry run %1.</source>
        <translation>执行校验任务 %1 的变更计划。</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>Stopped at %1 of %2 rows.</source>
        <translation>停在第 %1 / %2 行。</translation>
    </message>
    <message>
        <source>Stopped after %1 rows.</source>
        <translation>处理 %1 行后停止。</translation>
    </message>
    <message>
        <source>Import the remaining rows to finish the file: the rows already in stay.</source>
        <translation>选择“导入其余的行”即可完成这个文件：已导入的行保持不变。</translation>
    </message>
    <message>
        <source>Imports the remaining rows of task %1.</source>
        <translation>导入任务 %1 其余的行。</translation>
    </message>
    <message>
        <source>Its remaining rows are imported by task %1.</source>
        <translation>其余的行由任务 %1 导入。</translation>
    </message>
    <message>
        <source>Its file replaced the file of %1.</source>
        <translation>它的文件替换了 %1 的文件。</translation>
    </message>
    <message>
        <source>Task number</source>
        <translation>任务号</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>Change plan</source>
        <translation>变更计划</translation>
    </message>
    <message>
        <source>Filters</source>
        <translation>筛选条件</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>File replaced</source>
        <translation>文件替换</translation>
    </message>
    <message>
        <source>Rows awaiting references</source>
        <translation>待补全关联的行</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>停止位置</translation>
    </message>
    <message>
        <source>Continues</source>
        <translation>续导</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>Feed</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>Validate only</source>
        <translation>仅校验</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Repairs task</source>
        <translation>修复的任务</translation>
    </message>
    <message>
        <source>Error CSV</source>
        <translation>错误文件</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>执行次数</translation>
    </message>
    <message>
        <source>Next try</source>
        <translation>下次重试</translation>
    </message>
    <message>
        <source>Submitted by</source>
        <translation>提交人</translation>
    </message>
    <message>
        <source>Run by</source>
        <translation>执行者</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束时间</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <source>Error code</source>
        <translation>错误代码</translation>
    </message>
    <message>
        <source>Summary file</source>
        <translation>汇总文件</translation>
    </message>
    <message>
        <source>Technical details</source>
        <translation>技术细节</translation>
    </message>
    <message>
        <source>Select a task to see its details.</source>
        <translation>选择一个任务以查看详情。</translation>
    </message>
    <message>
        <source>Log of this task:</source>
        <translation>本任务的日志：</translation>
    </message>
    <message>
        <source>Log of this task</source>
        <translation>本任务的日志</translation>
    </message>
</context>
<context>
    <name>Encodings</name>
    <message>
        <source>Unicode (UTF-8)</source>
        <translation>Unicode（UTF-8）</translation>
    </message>
    <message>
        <source>UTF-8 with BOM (Excel)</source>
        <translation>UTF-8 带 BOM（Excel）</translation>
    </message>
    <message>
        <source>Unicode (UTF-16) - Excel&apos;s &quot;Unicode text&quot;</source>
        <translation>Unicode（UTF-16）- Excel 的“Unicode 文本”</translation>
    </message>
    <message>
        <source>Unicode (UTF-32)</source>
        <translation>Unicode（UTF-32）</translation>
    </message>
    <message>
        <source>Chinese (GBK) - Excel on Chinese Windows</source>
        <translation>简体中文（GBK）- 中文版 Windows 上的 Excel</translation>
    </message>
    <message>
        <source>Traditional Chinese (Big5) - Taiwan, Hong Kong</source>
        <translation>繁体中文（Big5）- 台湾、香港</translation>
    </message>
    <message>
        <source>Japanese (Shift-JIS)</source>
        <translation>日文（Shift-JIS）</translation>
    </message>
    <message>
        <source>Korean (EUC-KR)</source>
        <translation>韩文（EUC-KR）</translation>
    </message>
    <message>
        <source>Western (Windows-1252) - Excel on English Windows</source>
        <translation>西欧（Windows-1252）- 英文版 Windows 上的 Excel</translation>
    </message>
    <message>
        <source>Western (Latin-1)</source>
        <translation>西欧（Latin-1）</translation>
    </message>
    <message>
        <source>Plain English text (ASCII)</source>
        <translation>纯英文文本（ASCII）</translation>
    </message>
    <message>
        <source>detected from the file</source>
        <translation>从文件自动识别</translation>
    </message>
    <message>
        <source>Detected: %1</source>
        <translation>自动识别：%1</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>(any)</source>
        <translation>（不限）</translation>
    </message>
    <message>
        <source>Filter by %s</source>
        <translation>按%s筛选</translation>
    </message>
    <message>
        <source>&lt;date-time&gt;</source>
        <translation>&lt;日期时间&gt;</translation>
    </message>
    <message>
        <source>&lt;task number&gt;</source>
        <translation>&lt;任务号&gt;</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Save the export as</source>
        <translation>导出文件另存为</translation>
    </message>
    <message>
        <source>Choose what to export.</source>
        <translation>请选择要导出的内容。</translation>
    </message>
    <message>
        <source>“%1” is after “%2”.</source>
        <translation>“%1”晚于“%2”。</translation>
    </message>
    <message>
        <source>Replace the file?</source>
        <translation>替换这个文件？</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it with the export?</source>
        <translation>%1 已存在。要用导出的文件替换它吗？</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>替换(&amp;R)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>E&amp;xport:</source>
        <translation>导出内容(&amp;X)：</translation>
    </message>
    <message>
        <source>What to export</source>
        <translation>要导出的内容</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>File format</source>
        <translation>文件格式</translation>
    </message>
    <message>
        <source>E&amp;ncoding:</source>
        <translation>编码(&amp;N)：</translation>
    </message>
    <message>
        <source>Encoding of the CSV file</source>
        <translation>CSV 文件的编码</translation>
    </message>
    <message>
        <source>Save &amp;to:</source>
        <translation>保存到(&amp;T)：</translation>
    </message>
    <message>
        <source>Where the exported file is saved</source>
        <translation>导出的文件保存在哪里</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Only the rows with</source>
        <translation>只导出符合以下条件的行</translation>
    </message>
    <message>
        <source>C&amp;lear the filters</source>
        <translation>清除筛选条件(&amp;L)</translation>
    </message>
    <message>
        <source>Only the rows imported by %1</source>
        <translation>只导出任务 %1 导入的行</translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation>清除筛选条件</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Queue the export</source>
        <translation>提交导出任务</translation>
    </message>
</context>
<context>
    <name>FeedDialog</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Choose the folder to watch</source>
        <translation>选择要监视的文件夹</translation>
    </message>
    <message>
        <source>The folder cannot be read</source>
        <translation>无法读取这个文件夹</translation>
    </message>
    <message>
        <source>Choose a folder to see which files match</source>
        <translation>选择文件夹后，这里显示现在有哪些文件符合</translation>
    </message>
    <message>
        <source>The pattern names no files (e.g. *.csv;*.xlsx)</source>
        <translation>文件名规则没有指定任何文件（例如 *.csv;*.xlsx）</translation>
    </message>
    <message>
        <source>A network folder: checked when the feed runs</source>
        <translation>网络文件夹：运行时再查看</translation>
    </message>
    <message>
        <source>No file matches now</source>
        <translation>现在没有符合的文件</translation>
    </message>
    <message>
        <source>1 file matches now</source>
        <translation>现在有 1 个文件符合</translation>
    </message>
    <message>
        <source>%1 files match now</source>
        <translation>现在有 %1 个文件符合</translation>
    </message>
    <message>
        <source>Times of day are written HH:MM, separated by commas (e.g. 07:30,13:00)</source>
        <translation>时间写作 时:分，用逗号分隔（例如 07:30,13:00）</translation>
    </message>
    <message>
        <source>Give the feed a name.</source>
        <translation>请给监视文件夹起个名称。</translation>
    </message>
    <message>
        <source>Choose the folder to watch.</source>
        <translation>请选择要监视的文件夹。</translation>
    </message>
    <message>
        <source>Type the folder&apos;s whole path (e.g. D:\Imports\Bank or /home/clerk/imports), or choose it with Choose….</source>
        <translation>请输入文件夹的完整路径（例如 D:\Imports\Bank 或 /home/clerk/imports），或用“选择…”选择它。</translation>
    </message>
    <message>
        <source>There is no import type to choose.</source>
        <translation>没有可选的导入类型。</translation>
    </message>
    <message>
        <source>Edit feed %1</source>
        <translation>修改监视文件夹 %1</translation>
    </message>
    <message>
        <source>Add a feed</source>
        <translation>添加监视文件夹</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>Import &amp;type:</source>
        <translation>导入类型(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>映射配置(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Rows already in the table:</source>
        <translation>表中已有的行(&amp;R)：</translation>
    </message>
    <message>
        <source>Files to ta&amp;ke:</source>
        <translation>要导入的文件(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Settle time (seconds):</source>
        <translation>稳定时间（秒）(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;When to look:</source>
        <translation>查看时间(&amp;W)：</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Add new rows only (a row already in the table is an error)</source>
        <translation>只新增（表中已有的行记为错误）</translation>
    </message>
    <message>
        <source>Add new, skip existing</source>
        <translation>只新增，跳过已有的行</translation>
    </message>
    <message>
        <source>Update existing (only rows already in the table)</source>
        <translation>只更新（仅限表中已有的行）</translation>
    </message>
    <message>
        <source>Add new and update existing</source>
        <translation>新增并更新已有的行</translation>
    </message>
    <message>
        <source>Names to take, separated by ;, whatever their case (e.g. *.csv;*.xlsx). Hidden files, Office lock files and downloads under way are never taken.</source>
        <translation>要导入的文件名规则，用 ; 分隔，不区分大小写（例如 *.csv;*.xlsx）。隐藏文件、Office 锁定文件和尚未下载完的文件永远不会导入。</translation>
    </message>
    <message>
        <source>A file is taken once its size and time stayed the same this long (a file still being copied is never taken half-written)</source>
        <translation>文件的大小和修改时间保持不变这么久之后才导入（正在复制的文件不会只导入一半）</translation>
    </message>
    <message>
        <source>Every</source>
        <translation>每隔</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>At these times of the day:</source>
        <translation>每天在这些时间：</translation>
    </message>
    <message>
        <source>One file at a time, the oldest first</source>
        <translation>一次一个文件，最早的先导入</translation>
    </message>
    <message>
        <source>Leave the files in the folder (do not move them after their import)</source>
        <translation>文件留在文件夹里（导入后不移走）</translation>
    </message>
</context>
<context>
    <name>FeedNotices</name>
    <message>
        <source>Feed %1: %2 files with errors</source>
        <translation>监视文件夹 %1：%2 个文件有错误</translation>
    </message>
    <message>
        <source>Feed %1: %2 could not be imported (imported: %3, rows with errors: %4)</source>
        <translation>监视文件夹 %1：%2 没能导入（已导入 %3 行，%4 行有错误）</translation>
    </message>
    <message>
        <source>Feed %1: %2 was imported with errors (imported: %3, rows with errors: %4)</source>
        <translation>监视文件夹 %1：%2 已导入，但有错误（已导入 %3 行，%4 行有错误）</translation>
    </message>
    <message>
        <source>: %1</source>
        <translation>：%1</translation>
    </message>
    <message>
        <source>Open error file</source>
        <translation>打开错误文件</translation>
    </message>
    <message>
        <source>Show the task</source>
        <translation>显示任务</translation>
    </message>
    <message>
        <source>Feed %1</source>
        <translation>监视文件夹 %1</translation>
    </message>
</context>
<context>
    <name>FeedsTableModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>映射配置</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Last scan</source>
        <translation>上次查看</translation>
    </message>
    <message>
        <source>Today: imported / failed / duplicates</source>
        <translation>今天：已导入 / 失败 / 重复</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Next run</source>
        <translation>下次查看</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>Scanning now</source>
        <translation>正在查看</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>when a desk runs it</source>
        <translation>等待电脑运行</translation>
    </message>
    <message>
        <source>%1
Pattern: %2</source>
        <translation>%1
文件名规则：%2</translation>
    </message>
    <message>
        <source>Today: %1 imported, %2 failed, %3 duplicates (not imported again)</source>
        <translation>今天：已导入 %1 个，失败 %2 个，重复 %3 个（没有再次导入）</translation>
    </message>
    <message>
        <source>Files in its folder that wait for the feed to be resumed, and files seen and not ended yet</source>
        <translation>文件夹中等待恢复后导入的文件，以及已发现但尚未处理完的文件</translation>
    </message>
    <message>
        <source>Files seen and not ended yet: settling, queued or being moved</source>
        <translation>已发现但尚未处理完的文件：等待稳定、排队导入或正在移走</translation>
    </message>
</context>
<context>
    <name>FeedsWindow</name>
    <message>
        <source>The feeds could not be read: %1</source>
        <translation>无法读取监视文件夹：%1</translation>
    </message>
    <message>
        <source>Feeds</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>Remove the feed “%1”? It stops watching %2. Its import tasks stay in the task list, and the files in its folder stay where they are.</source>
        <translation>移除监视文件夹“%1”？将不再监视 %2。它的导入任务仍留在任务列表中，文件夹里的文件也留在原处。</translation>
    </message>
    <message>
        <source>Remove feed</source>
        <translation>移除监视文件夹</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>The folder %1 could not be opened.</source>
        <translation>无法打开文件夹 %1。</translation>
    </message>
    <message>
        <source>Feeds: watched folders</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>修改(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Run now</source>
        <translation>立即查看(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>恢复(&amp;U)</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>移除(&amp;M)…</translation>
    </message>
    <message>
        <source>Open &amp;folder</source>
        <translation>打开文件夹(&amp;F)</translation>
    </message>
    <message>
        <source>Watch a folder: each file dropped into it is imported once, then moved to imported, failed or duplicates</source>
        <translation>监视一个文件夹：放进去的每个文件导入一次，然后移到 imported、failed 或 duplicates 文件夹</translation>
    </message>
    <message>
        <source>Look at the folder now</source>
        <translation>现在就查看文件夹</translation>
    </message>
    <message>
        <source>No feeds yet. Add one to import each file dropped into a folder.</source>
        <translation>还没有监视文件夹。添加一个，放进文件夹的每个文件都会自动导入。</translation>
    </message>
</context>
<context>
    <name>FileChoices</name>
    <message>
        <source>&amp;Sheet:</source>
        <translation>工作表(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Encoding:</source>
        <translation>编码(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Separator:</source>
        <translation>分隔符(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Dates such as %1:</source>
        <translation>像 %1 这样的日期(&amp;D)：</translation>
    </message>
    <message>
        <source>Numbers use a decimal &amp;comma (1 234,50 or 1.234,50)</source>
        <translation>数字以逗号作小数点(&amp;C)（1 234,50 或 1.234,50）</translation>
    </message>
    <message>
        <source>Raise the size &amp;limit to %1 MB for this file</source>
        <translation>仅对这个文件把大小上限提高到 %1 MB(&amp;L)</translation>
    </message>
    <message>
        <source>Raise the ro&amp;w limit to %1 rows for this import</source>
        <translation>仅对这次导入把行数上限提高到 %1 行(&amp;W)</translation>
    </message>
    <message>
        <source>Sheet of the workbook</source>
        <translation>工作簿中的工作表</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Separator between the fields</source>
        <translation>字段之间的分隔符</translation>
    </message>
    <message>
        <source>Order of day and month in the file&apos;s dates</source>
        <translation>文件中日期的日、月顺序</translation>
    </message>
    <message>
        <source>Comma (,)</source>
        <translation>逗号（,）</translation>
    </message>
    <message>
        <source>Semicolon (;)</source>
        <translation>分号（;）</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>制表符（Tab）</translation>
    </message>
    <message>
        <source>Vertical bar (|)</source>
        <translation>竖线（|）</translation>
    </message>
    <message>
        <source>Detected from the file</source>
        <translation>从文件自动识别</translation>
    </message>
    <message>
        <source>As the file&apos;s sep= line says: %1</source>
        <translation>按文件首行 sep= 的说明：%1</translation>
    </message>
    <message>
        <source>Detected: %1</source>
        <translation>自动识别：%1</translation>
    </message>
    <message>
        <source>Choose: the file does not say</source>
        <translation>请选择：文件里看不出来</translation>
    </message>
    <message>
        <source>Day first: %1 is %2</source>
        <translation>日在前：%1 即 %2</translation>
    </message>
    <message>
        <source>Month first: %1 is %2</source>
        <translation>月在前：%1 即 %2</translation>
    </message>
    <message>
        <source>Row %1 has the date %2, which can be read day first or month first, and the file does not show which: choose the order of its dates.</source>
        <translation>第 %1 行的日期 %2 既可以读作日在前，也可以读作月在前，文件里也看不出是哪一种：请选择这个文件的日期顺序。</translation>
    </message>
    <message>
        <source>Dates such as %1 are read %2, as row %3 (%4) shows.</source>
        <translation>像 %1 这样的日期按%2读取，第 %3 行（%4）表明了这一点。</translation>
    </message>
    <message>
        <source>day first</source>
        <translation>日在前</translation>
    </message>
    <message>
        <source>month first</source>
        <translation>月在前</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>All tasks</source>
        <translation>全部任务</translation>
    </message>
    <message>
        <source>Pending or running</source>
        <translation>等待中或执行中</translation>
    </message>
    <message>
        <source>Failed list (failed or partly)</source>
        <translation>失败清单（失败或部分失败）</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <source>Show tasks with status</source>
        <translation>按状态显示任务</translation>
    </message>
    <message>
        <source>Fi&amp;nd:</source>
        <translation>查找(&amp;N)：</translation>
    </message>
    <message>
        <source>task number, file name, stage…</source>
        <translation>任务号、文件名、阶段…</translation>
    </message>
    <message>
        <source>Find tasks</source>
        <translation>查找任务</translation>
    </message>
    <message>
        <source>Failed &amp;list</source>
        <translation>失败清单(&amp;L)</translation>
    </message>
    <message>
        <source>Show only failed tasks</source>
        <translation>只显示失败的任务</translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <source>BatchDesk help</source>
        <translation>BatchDesk 帮助</translation>
    </message>
    <message>
        <source>Choose a file (or drop it on the window), check the import type and press Queue….</source>
        <translation>选择一个文件（或拖到窗口上），确认导入类型，然后点“排队导入…”。</translation>
    </message>
    <message>
        <source>The preview shows the first rows as they will be read; press Queue to start. The task number appears in the list at once.</source>
        <translation>预览会显示将被读取的前几行；点“排队导入”开始。任务号会立即出现在列表中。</translation>
    </message>
    <message>
        <source>The list shows each task&apos;s progress, speed and time left. You can close the window: tasks continue in the background or at the next start.</source>
        <translation>列表显示每个任务的进度、速度和剩余时间。可以关闭窗口：任务会在后台继续，或在下次启动时继续。</translation>
    </message>
    <message>
        <source>When rows fail, open the error file: each row says what is wrong. Correct the rows and re-import the error file.</source>
        <translation>有行失败时，打开错误文件：每一行都写明了错误原因。改正这些行后，重新导入错误文件。</translation>
    </message>
    <message>
        <source>How it works</source>
        <translation>使用方法</translation>
    </message>
    <message>
        <source>Keyboard</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>ImportCatalog</name>
    <message>
        <source>Level</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Department</source>
        <translation>部门</translation>
    </message>
    <message>
        <source>Opened from</source>
        <translation>开户日期从</translation>
    </message>
    <message>
        <source>Opened until</source>
        <translation>开户日期到</translation>
    </message>
    <message>
        <source>Imported by task</source>
        <translation>导入任务编号</translation>
    </message>
    <message>
        <source>none (every row)</source>
        <translation>无（全部行）</translation>
    </message>
    <message>
        <source>Fix values</source>
        <translation>修正取值</translation>
    </message>
    <message>
        <source>Complete references</source>
        <translation>补全关联</translation>
    </message>
    <message>
        <source>Daily clean-up</source>
        <translation>每日清理</translation>
    </message>
    <message>
        <source>A feed&apos;s look at its folder</source>
        <translation>自动导入检查文件夹</translation>
    </message>
    <message>
        <source>A feed&apos;s mail about an import</source>
        <translation>自动导入的导入通知邮件</translation>
    </message>
    <message>
        <source>Undo of %1</source>
        <translation>撤销 %1</translation>
    </message>
    <message>
        <source>Workbook import</source>
        <translation>工作簿导入</translation>
    </message>
    <message>
        <source> (validate only)</source>
        <translation>（仅校验）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Showing the archived tasks.</source>
        <translation>正在显示已归档的任务。</translation>
    </message>
    <message>
        <source>The task list could not be read: %s</source>
        <translation>无法读取任务列表：%s</translation>
    </message>
    <message>
        <source>Rows copied: %1.</source>
        <translation>已复制 %1 行。</translation>
    </message>
    <message>
        <source>File not found: %s</source>
        <translation>找不到文件：%s</translation>
    </message>
    <message>
        <source>Another file is being queued; try again in a moment.</source>
        <translation>正在提交另一个文件，请稍后再试。</translation>
    </message>
    <message>
        <source>BatchDesk</source>
        <translation>BatchDesk</translation>
    </message>
    <message>
        <source>%s is in the file field: queue it when the open preview is closed.</source>
        <translation>%s 已填入文件栏：请在关闭当前预览后再提交。</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>all its rows</source>
        <translation>全部行</translation>
    </message>
    <message>
        <source>This sync would delete 1 row of %2 (scope: %3): the row the file lacks.</source>
        <translation>这次同步将删除表 %2 的 1 行（范围：%3），即文件里没有的那一行。</translation>
    </message>
    <message>
        <source>This sync would delete %1 rows of %2 (scope: %3): the rows the file lacks.</source>
        <translation>这次同步将删除表 %2 的 %1 行（范围：%3），即文件里没有的行。</translation>
    </message>
    <message>
        <source>Delete rows?</source>
        <translation>删除行？</translation>
    </message>
    <message>
        <source>The file&apos;s rows are added or updated as well. An undo puts every deleted row back. Queue it?</source>
        <translation>文件里的行也会新增或更新。撤销会把删除的每一行放回。要排队吗？</translation>
    </message>
    <message>
        <source>Check &amp;first (dry run)</source>
        <translation>先校验(&amp;F)</translation>
    </message>
    <message>
        <source>The same export is already queued as task %s.</source>
        <translation>相同的导出已在排队，任务 %s。</translation>
    </message>
    <message>
        <source>The remaining rows of this file were already imported by task %s.</source>
        <translation>这个文件其余的行已由任务 %s 导入。</translation>
    </message>
    <message>
        <source>This file is already queued as task %s.</source>
        <translation>这个文件已经在队列中：任务 %s。</translation>
    </message>
    <message>
        <source>The same request is already queued as task %s.</source>
        <translation>相同的请求已在排队，任务 %s。</translation>
    </message>
    <message>
        <source>Queued as task %s.</source>
        <translation>已加入队列：任务 %s。</translation>
    </message>
    <message>
        <source>Already imported</source>
        <translation>已经导入过</translation>
    </message>
    <message>
        <source>This file was already imported on %1 as task %2. Import it again?</source>
        <translation>这个文件已于 %1 导入过（任务 %2）。确定要再次导入吗？</translation>
    </message>
    <message>
        <source>%1 could not be queued: %2</source>
        <translation>%1 无法加入队列：%2</translation>
    </message>
    <message>
        <source>Task %s has already ended.</source>
        <translation>任务 %s 已经结束。</translation>
    </message>
    <message>
        <source>The plan of %1 was discarded.</source>
        <translation>%1 的变更计划已放弃。</translation>
    </message>
    <message>
        <source>Could not open %s</source>
        <translation>无法打开 %s</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Task %1 (%2) has not finished.</source>
        <translation>任务 %1（%2）尚未完成。</translation>
    </message>
    <message>
        <source>Task %1 has not finished.</source>
        <translation>任务 %1 尚未完成。</translation>
    </message>
    <message>
        <source>%1 Stop it now (it continues from where it stopped at the next start) or keep it running in the background?</source>
        <translation>%1现在停止（下次启动时从停下的地方继续），还是让它在后台继续运行？</translation>
    </message>
    <message>
        <source>%1 tasks have not finished (%2).</source>
        <translation>%1 个任务尚未完成（%2）。</translation>
    </message>
    <message>
        <source>Tasks are still running.</source>
        <translation>仍有任务在运行。</translation>
    </message>
    <message>
        <source>%1 Stop them now (they continue from where they stopped at the next start) or keep them running in the background?</source>
        <translation>%1现在停止（下次启动时从停下的地方继续），还是让它们在后台继续运行？</translation>
    </message>
    <message>
        <source>Running in the background: %1</source>
        <translation>正在后台运行：%1</translation>
    </message>
    <message>
        <source>Tasks are running</source>
        <translation>有任务正在执行</translation>
    </message>
    <message>
        <source>&amp;Stop and resume later</source>
        <translation>停止，下次继续(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Keep running in the tray</source>
        <translation>在托盘中继续执行(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Keep running (minimise)</source>
        <translation>继续执行（最小化）(&amp;K)</translation>
    </message>
    <message>
        <source>BatchDesk — import tasks</source>
        <translation>BatchDesk — 导入任务</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务列表</translation>
    </message>
    <message>
        <source>What happened to the selected task</source>
        <translation>所选任务的结果</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Close this message</source>
        <translation>关闭此消息</translation>
    </message>
</context>
<context>
    <name>OpenFailedDialog</name>
    <message>
        <source>The path is copied: paste it into the program you want to open it with.</source>
        <translation>路径已复制：请粘贴到要用来打开它的程序中。</translation>
    </message>
    <message>
        <source>The folder could not be opened either. Copy the path and open it yourself.</source>
        <translation>文件夹也无法打开。请复制路径后自行打开。</translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>This computer has no program that opens %1 files, so BatchDesk could not open it:</source>
        <translation>这台电脑上没有能打开 %1 文件的程序，BatchDesk 无法打开它：</translation>
    </message>
    <message>
        <source>The system could not open this folder:</source>
        <translation>系统无法打开这个文件夹：</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>&amp;Copy path</source>
        <translation>复制路径(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Show in folder</source>
        <translation>在文件夹中显示(&amp;S)</translation>
    </message>
</context>
<context>
    <name>Outcomes</name>
    <message>
        <source>Nothing fixed</source>
        <translation>没有修正任何行</translation>
    </message>
    <message>
        <source>Nothing completed</source>
        <translation>未补全任何关联</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>已修正</translation>
    </message>
    <message>
        <source>Nothing completed: %1 references are still not found</source>
        <translation>未补全任何关联：仍有 %1 个关联找不到</translation>
    </message>
    <message>
        <source>Completed %1 of %2 references</source>
        <translation>已补全 %1 个关联（共 %2 个）</translation>
    </message>
    <message>
        <source>Done: no row matches the filters (a text must match the whole value)</source>
        <translation>已完成：没有符合筛选条件的行（文字须与整个值相同）</translation>
    </message>
    <message>
        <source>Done: 1 row exported</source>
        <translation>已完成：导出 1 行</translation>
    </message>
    <message>
        <source>Done: %1 rows exported</source>
        <translation>已完成：导出 %1 行</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Nothing fixed: no row of %2 failed only for these values</source>
        <translation>没有修正任何行：%2 中没有只因这些取值而失败的行</translation>
    </message>
    <message>
        <source>Nothing fixed: %3 rows of %2 were refused again</source>
        <translation>没有修正任何行：%2 的 %3 行再次被拒绝</translation>
    </message>
    <message>
        <source>Fixed values: 1 row of %2 imported, %3 refused again</source>
        <translation>已修正取值：%2 导入了 1 行，%3 行再次被拒绝</translation>
    </message>
    <message>
        <source>Fixed values: %1 rows of %2 imported, %3 refused again</source>
        <translation>已修正取值：%2 导入了 %1 行，%3 行再次被拒绝</translation>
    </message>
    <message>
        <source>Fixed values: 1 row of %2 imported</source>
        <translation>已修正取值：%2 导入了 1 行</translation>
    </message>
    <message>
        <source>Fixed values: %1 rows of %2 imported</source>
        <translation>已修正取值：%2 导入了 %1 行</translation>
    </message>
    <message>
        <source>Done: 1 row deleted</source>
        <translation>已完成：删除 1 行</translation>
    </message>
    <message>
        <source>Done: %1 rows deleted</source>
        <translation>已完成：删除 %1 行</translation>
    </message>
    <message>
        <source>Done: %1 of %2 deleted, 1 row with errors</source>
        <translation>已完成：删除 %1 行（共 %2 行），1 行有错误</translation>
    </message>
    <message>
        <source>Done: %1 of %2 deleted, %3 rows with errors</source>
        <translation>已完成：删除 %1 行（共 %2 行），%3 行有错误</translation>
    </message>
    <message>
        <source>Failed: %1 of %2 deleted, 1 row with errors</source>
        <translation>失败：删除 %1 行（共 %2 行），1 行有错误</translation>
    </message>
    <message>
        <source>Failed: %1 of %2 deleted, %3 rows with errors</source>
        <translation>失败：删除 %1 行（共 %2 行），%3 行有错误</translation>
    </message>
    <message>
        <source>%1 added</source>
        <translation>新增 %1 行</translation>
    </message>
    <message>
        <source>%1 updated</source>
        <translation>更新 %1 行</translation>
    </message>
    <message>
        <source>%1 unchanged</source>
        <translation>%1 行未变</translation>
    </message>
    <message>
        <source>%1 deleted</source>
        <translation>删除 %1 行</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <source>Done: %1, 1 row with errors</source>
        <translation>已完成：%1，1 行有错误</translation>
    </message>
    <message>
        <source>Done: %1, %3 rows with errors</source>
        <translation>已完成：%1，%3 行有错误</translation>
    </message>
    <message>
        <source>Done: 1 row imported</source>
        <translation>已完成：导入 1 行</translation>
    </message>
    <message>
        <source>Done: %1 rows imported</source>
        <translation>已完成：导入 %1 行</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Cancelled before any row was deleted</source>
        <translation>已取消，没有删除任何行</translation>
    </message>
    <message>
        <source>Cancelled before any row was imported</source>
        <translation>已取消，没有导入任何行</translation>
    </message>
    <message>
        <source>Cancelled: %1 of %2 deleted; they stay deleted</source>
        <translation>已取消：已删除 %1 行（共 %2 行），这些行不会恢复</translation>
    </message>
    <message>
        <source>Cancelled: %1 deleted; they stay deleted</source>
        <translation>已取消：已删除 %1 行，这些行不会恢复</translation>
    </message>
    <message>
        <source>Cancelled: %1 of %2 imported; they stay</source>
        <translation>已取消：已导入 %1 行（共 %2 行），这些行保留</translation>
    </message>
    <message>
        <source>Cancelled: %1 imported; they stay</source>
        <translation>已取消：已导入 %1 行，这些行保留</translation>
    </message>
    <message>
        <source>Done: %1 of %2 imported, 1 row with errors</source>
        <translation>已完成：导入 %1 行（共 %2 行），1 行有错误</translation>
    </message>
    <message>
        <source>Done: %1 of %2 imported, %3 rows with errors</source>
        <translation>已完成：导入 %1 行（共 %2 行），%3 行有错误</translation>
    </message>
    <message>
        <source>Failed: %1 of %2 imported, 1 row with errors</source>
        <translation>失败：已导入 %1 行（共 %2 行），1 行有错误</translation>
    </message>
    <message>
        <source>Failed: %1 of %2 imported, %3 rows with errors</source>
        <translation>失败：已导入 %1 行（共 %2 行），%3 行有错误</translation>
    </message>
    <message>
        <source>Failed: nothing imported, 1 row with errors</source>
        <translation>失败：没有导入任何行，1 行有错误</translation>
    </message>
    <message>
        <source>Failed: nothing imported, %3 rows with errors</source>
        <translation>失败：没有导入任何行，%3 行有错误</translation>
    </message>
    <message>
        <source>Done after a fix: %1 rows imported</source>
        <translation>修正后完成：导入 %1 行</translation>
    </message>
    <message>
        <source>Failed after %1 rows were imported: %2</source>
        <translation>导入 %1 行后失败：%2</translation>
    </message>
    <message>
        <source>1 row removed</source>
        <translation>删除 1 行</translation>
    </message>
    <message>
        <source>%1 rows removed</source>
        <translation>删除 %1 行</translation>
    </message>
    <message>
        <source>1 row put back</source>
        <translation>恢复 1 行</translation>
    </message>
    <message>
        <source>%1 rows put back</source>
        <translation>恢复 %1 行</translation>
    </message>
    <message>
        <source>1 row kept (changed since)</source>
        <translation>保留 1 行（之后已被改动）</translation>
    </message>
    <message>
        <source>%1 rows kept (changed since)</source>
        <translation>保留 %1 行（之后已被改动）</translation>
    </message>
    <message>
        <source>Done: nothing to undo</source>
        <translation>已完成：没有需要撤销的行</translation>
    </message>
    <message>
        <source>Undone by %1 — %2</source>
        <translation>已被 %1 撤销 — %2</translation>
    </message>
    <message>
        <source>Applied by %1 — %2</source>
        <translation>已由 %1 执行 — %2</translation>
    </message>
    <message>
        <source>Continued by %1 — %2</source>
        <translation>已由 %1 继续导入 — %2</translation>
    </message>
    <message>
        <source>%1 (%2) ended: %3</source>
        <translation>%1（%2）已结束：%3</translation>
    </message>
    <message>
        <source>%1 ended: %3</source>
        <translation>%1 已结束：%3</translation>
    </message>
</context>
<context>
    <name>PasswordDialog</name>
    <message>
        <source>The new password</source>
        <translation>新密码</translation>
    </message>
    <message>
        <source>%1 was added.</source>
        <translation>已添加 %1。</translation>
    </message>
    <message>
        <source>%1 may log in now (its tasks were kept).</source>
        <translation>%1 现在可以登录了（任务都已保留）。</translation>
    </message>
    <message>
        <source>Its password is shown only this once: copy it and give it to its clerk.</source>
        <translation>密码只显示这一次：请复制下来交给对应的职员。</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
</context>
<context>
    <name>PlanTableModel</name>
    <message>
        <source>A row of the table that the file lacks: the sync deletes it</source>
        <translation>表中有而文件里没有的行：同步会删除它</translation>
    </message>
    <message>
        <source>This row will wait until the name is added</source>
        <translation>补上名称前，这一行会等待</translation>
    </message>
    <message>
        <source>Before: %1</source>
        <translation>原值：%1</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
</context>
<context>
    <name>PreviewDialog</name>
    <message>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <source>All its rows</source>
        <translation>表中所有行</translation>
    </message>
    <message>
        <source>Column for header %s</source>
        <translation>表头 %s 对应的列</translation>
    </message>
    <message>
        <source>(ignored)</source>
        <translation>（忽略）</translation>
    </message>
    <message>
        <source>Cannot queue: %1</source>
        <translation>无法排队导入：%1</translation>
    </message>
    <message>
        <source>Or tick “Raise the size limit … for this file” below to import it whole.</source>
        <translation>也可以勾选下方的“仅对这个文件把大小上限提高到…”，整个文件照常导入。</translation>
    </message>
    <message>
        <source>Choose how the file writes its dates (day first or month first) before queueing.</source>
        <translation>排队前请选择这个文件的日期写法（日在前还是月在前）。</translation>
    </message>
    <message>
        <source>Cannot queue: about %1 rows, more than the limit of %2 rows.</source>
        <translation>无法排队导入：约 %1 行，超过上限 %2 行。</translation>
    </message>
    <message>
        <source>Cannot queue: %1 rows, more than the limit of %2 rows.</source>
        <translation>无法排队导入：共 %1 行，超过上限 %2 行。</translation>
    </message>
    <message>
        <source>Split the file and import the parts.</source>
        <translation>请拆分文件后分别导入。</translation>
    </message>
    <message>
        <source>Split the file, or tick “Raise the row limit … for this import” below.</source>
        <translation>请拆分文件，或勾选下方的“仅对这次导入把行数上限提高到…”。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail: hover a red cell for the reason.</source>
        <translation>前 %2 行中有 %1 行会失败：把鼠标停在红色单元格上可看原因。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail as already in the table: this mode adds new rows only.</source>
        <translation>前 %2 行中有 %1 行已在表中，会失败：当前方式只新增行。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail as not in the table: this mode updates rows already in the table only.</source>
        <translation>前 %2 行中有 %1 行不在表中，会失败：当前方式只更新表中已有的行。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows would fail as not in the table: there is no row to delete.</source>
        <translation>前 %2 行中有 %1 行将失败：表中没有这一行，无从删除。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will be skipped: already in the table.</source>
        <translation>前 %2 行中有 %1 行已在表中，将被跳过。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will update rows already in the table.</source>
        <translation>前 %2 行中有 %1 行已在表中，将更新表中的这些行。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will change nothing: already in the table with these values.</source>
        <translation>前 %2 行中有 %1 行已在表中且内容相同，不会有任何改变。</translation>
    </message>
    <message>
        <source>%1 of the first %2 rows will delete their rows from the table.</source>
        <translation>前 %2 行中有 %1 行将从表中删除对应的行。</translation>
    </message>
    <message>
        <source>The cells of the one row pass every check; looking it up in the table…</source>
        <translation>这 1 行的单元格全部通过检查；正在到表中查找它…</translation>
    </message>
    <message>
        <source>The cells of the first %1 rows pass every check; looking the rows up in the table…</source>
        <translation>前 %1 行的单元格全部通过检查；正在表中查找这些行…</translation>
    </message>
    <message>
        <source>Looking the rows up in the table…</source>
        <translation>正在表中查找这些行…</translation>
    </message>
    <message>
        <source>The one row passes every check.</source>
        <translation>这 1 行全部通过检查。</translation>
    </message>
    <message>
        <source>The first %1 rows pass every check.</source>
        <translation>前 %1 行全部通过检查。</translation>
    </message>
    <message>
        <source>Whether they are already in the table could not be checked: %1</source>
        <translation>无法检查这些行是否已在表中：%1</translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others are still deleted.</source>
        <translation>失败的行会写入错误文件，其余的行照常删除。</translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others still import.</source>
        <translation>失败的行会写入错误文件，其余的行照常导入。</translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others are still deleted, but with more than %1 of the rows failing the delete counts as failed (the rows deleted stay deleted).</source>
        <translation>失败的行会写入错误文件，其余的行照常删除；但失败的行超过 %1 时，删除会判定为失败（已删除的行不会恢复）。</translation>
    </message>
    <message>
        <source>Rows that fail go to the error file; the others still import, but with more than %1 of the rows failing the import counts as failed (the rows that went in stay).</source>
        <translation>失败的行会写入错误文件，其余的行照常导入；但失败的行超过 %1 时，导入会判定为失败（已导入的行保留）。</translation>
    </message>
    <message>
        <source>1 row names a %2 not in the table yet: it will wait until the name is added.</source>
        <translation>1 行的%2还不在表中：补上名称前，这一行会等待。</translation>
    </message>
    <message>
        <source>%1 rows name a %2 not in the table yet: they will wait until the names are added.</source>
        <translation>%1 行的%2还不在表中：补上名称前，这些行会等待。</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>Counting the rows…</source>
        <translation>正在统计行数…</translation>
    </message>
    <message>
        <source>About %1 rows</source>
        <translation>约 %1 行</translation>
    </message>
    <message>
        <source>1 row</source>
        <translation>1 行</translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>Va&amp;lidate</source>
        <translation>校验(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>加入队列(&amp;Q)</translation>
    </message>
    <message>
        <source>Saving the profile…</source>
        <translation>正在保存映射配置…</translation>
    </message>
    <message>
        <source>The profile could not be saved: %1</source>
        <translation>无法保存映射配置：%1</translation>
    </message>
    <message>
        <source>Preview: %s</source>
        <translation>预览：%s</translation>
    </message>
    <message>
        <source>Import &amp;type:</source>
        <translation>导入类型(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Rows already in the table:</source>
        <translation>表中已有的行(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Blank cells:</source>
        <translation>空白单元格(&amp;B)：</translation>
    </message>
    <message>
        <source>Add new rows only (a row already in the table is an error)</source>
        <translation>只新增（表中已有的行记为错误）</translation>
    </message>
    <message>
        <source>Add new, skip existing</source>
        <translation>只新增，跳过已有的行</translation>
    </message>
    <message>
        <source>Update existing (only rows already in the table)</source>
        <translation>只更新（仅限表中已有的行）</translation>
    </message>
    <message>
        <source>Add new and update existing</source>
        <translation>新增并更新已有的行</translation>
    </message>
    <message>
        <source>Delete rows (the file lists their keys)</source>
        <translation>删除行（文件列出要删除的行的键）</translation>
    </message>
    <message>
        <source>Make the table equal to the file (sync)</source>
        <translation>让表与文件一致（同步）</translation>
    </message>
    <message>
        <source>Keep what is stored</source>
        <translation>保留表中原值</translation>
    </message>
    <message>
        <source>Empty the stored value</source>
        <translation>清空表中原值</translation>
    </message>
    <message>
        <source>What to do with rows already in the table</source>
        <translation>如何处理表中已有的行</translation>
    </message>
    <message>
        <source>What a blank cell does to a row being updated</source>
        <translation>更新时空白单元格的处理方式</translation>
    </message>
    <message>
        <source>Rows it may &amp;delete:</source>
        <translation>可删除的行(&amp;D)：</translation>
    </message>
    <message>
        <source>The column whose value picks the rows a sync may delete</source>
        <translation>按哪一列的值选出同步可删除的行</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>The value the column holds in the rows a sync may delete</source>
        <translation>同步可删除的行在该列中的值</translation>
    </message>
    <message>
        <source>First rows as they will be read and checked:</source>
        <translation>前几行（按导入时的方式读取并检查）：</translation>
    </message>
    <message>
        <source>Headers and the columns they fill (* required):</source>
        <translation>表头与对应的列（* 为必填）：</translation>
    </message>
    <message>
        <source>Header in the file</source>
        <translation>文件中的表头</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>对应的列</translation>
    </message>
    <message>
        <source>&amp;Validate only (dry run: check every row, import nothing)</source>
        <translation>仅校验(&amp;V)（检查每一行，不写入数据）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Import type</source>
        <translation>导入类型</translation>
    </message>
    <message>
        <source>First rows of the file</source>
        <translation>文件前几行</translation>
    </message>
    <message>
        <source>Header mapping</source>
        <translation>表头对应关系</translation>
    </message>
    <message>
        <source>This row will wait until the name is added</source>
        <translation>补上名称前，这一行会等待</translation>
    </message>
    <message>
        <source>This row has problems: hover its red cells</source>
        <translation>这一行有问题：把鼠标停在红色单元格上可看原因</translation>
    </message>
    <message>
        <source>Already in the table: this row will be skipped</source>
        <translation>已在表中：这一行将被跳过</translation>
    </message>
    <message>
        <source>Already in the table: this row will update it</source>
        <translation>已在表中：将用这一行更新表中的记录</translation>
    </message>
    <message>
        <source>Already in the table with these values: nothing will change</source>
        <translation>已在表中且内容相同：不会有任何改变</translation>
    </message>
    <message>
        <source>In the table: this row will be deleted</source>
        <translation>在表中：表中的这一行将被删除</translation>
    </message>
    <message>
        <source>Fills the column %1</source>
        <translation>填入“%1”列</translation>
    </message>
    <message>
        <source>Not used: the header “%1” already fills the column %2</source>
        <translation>未使用：表头“%1”已经填入“%2”列</translation>
    </message>
    <message>
        <source>“%1” is not used: the header “%2” already fills the column %3</source>
        <translation>“%1”未使用：表头“%2”已经填入“%3”列</translation>
    </message>
    <message>
        <source>Ignored: a delete reads only the key&apos;s columns</source>
        <translation>忽略：删除只读取键列</translation>
    </message>
    <message>
        <source>Ignored: no column of this type</source>
        <translation>忽略：不是该导入类型的列</translation>
    </message>
</context>
<context>
    <name>ProfileChoice</name>
    <message>
        <source>Save as profile for the team</source>
        <translation>另存为团队映射配置</translation>
    </message>
    <message>
        <source>Name of the profile (an existing name gets its next version):</source>
        <translation>映射配置名称（已有的名称会保存为它的新版本）：</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>映射配置(&amp;P)：</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Mapping profile</source>
        <translation>映射配置</translation>
    </message>
    <message>
        <source>Save as profile for the &amp;team…</source>
        <translation>另存为团队映射配置(&amp;T)…</translation>
    </message>
    <message>
        <source>Save these header choices and reading options as a profile that every desk on this database can use</source>
        <translation>把这些表头选择和读取选项保存为映射配置，使用同一数据库的每台电脑都能用</translation>
    </message>
    <message>
        <source>Using profile &apos;%1&apos; v%2</source>
        <translation>使用映射配置“%1” 第 %2 版</translation>
    </message>
    <message>
        <source>Saved as &apos;%1&apos; v%2</source>
        <translation>已保存为映射配置“%1” 第 %2 版</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>File Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>驱动器</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷方式</translation>
    </message>
    <message>
        <source>Alias</source>
        <translation>替身</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>ResumeQuestion</name>
    <message>
        <source>Import stopped early</source>
        <translation>导入中途停止</translation>
    </message>
    <message>
        <source>Import the remaining rows? The rows already in stay and count as imported; the rest of the file is imported.</source>
        <translation>导入其余的行吗？已导入的行保持不变并计为已导入，只导入文件中剩下的行。</translation>
    </message>
    <message>
        <source>Import the &amp;remaining rows</source>
        <translation>导入其余的行(&amp;R)</translation>
    </message>
    <message>
        <source>Import it all &amp;again</source>
        <translation>全部重新导入(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Do nothing</source>
        <translation>暂不处理(&amp;D)</translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) was cancelled at %2 of %3 rows.</source>
        <translation>这个文件的导入（任务 %1）在第 %2 / %3 行时被取消。</translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) was cancelled after %2 rows.</source>
        <translation>这个文件的导入（任务 %1）在处理 %2 行后被取消。</translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) stopped at %2 of %3 rows: %4</source>
        <translation>这个文件的导入（任务 %1）在第 %2 / %3 行时中断：%4</translation>
    </message>
    <message>
        <source>This file&apos;s import (task %1) stopped after %2 rows: %4</source>
        <translation>这个文件的导入（任务 %1）在处理 %2 行后中断：%4</translation>
    </message>
</context>
<context>
    <name>RightsDialog</name>
    <message>
        <source>Rights of %1</source>
        <translation>%1 的权限</translation>
    </message>
    <message>
        <source>What %1 may do with each import type&apos;s table. Inserting, updating or deleting includes reading; a type it may not read is not in its lists.</source>
        <translation>%1 对每种导入类型的表能做什么。新增、修改或删除都包含查看；不能查看的类型不会出现在其列表中。</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>查看</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Fill in the mail server and the sender address first.</source>
        <translation>请先填写邮件服务器和发件人地址。</translation>
    </message>
    <message>
        <source>Sending a test mail to %1…</source>
        <translation>正在给 %1 发送测试邮件…</translation>
    </message>
    <message>
        <source>A test mail was sent to %1.</source>
        <translation>测试邮件已发给 %1。</translation>
    </message>
    <message>
        <source>The test mail could not be sent: %1</source>
        <translation>测试邮件没能发出：%1</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation>常规(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Team</source>
        <translation>团队(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Largest &amp;file (MB):</source>
        <translation>文件大小上限（MB）(&amp;F)：</translation>
    </message>
    <message>
        <source>Most &amp;rows per file:</source>
        <translation>每个文件的行数上限(&amp;R)：</translation>
    </message>
    <message>
        <source>Keep results (&amp;days):</source>
        <translation>结果保留天数(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Database URL:</source>
        <translation>数据库地址(&amp;D)：</translation>
    </message>
    <message>
        <source>Database &amp;password:</source>
        <translation>数据库密码(&amp;P)：</translation>
    </message>
    <message>
        <source>Concurrent &amp;tasks:</source>
        <translation>同时执行的任务数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Batch size (rows per commit):</source>
        <translation>批大小（每次提交的行数）(&amp;B)：</translation>
    </message>
    <message>
        <source>empty: the embedded database in the data folder</source>
        <translation>留空：使用数据目录中的内置数据库</translation>
    </message>
    <message>
        <source>automatic (%d)</source>
        <translation>自动（%d）</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The password is kept in the system&apos;s keyring.</source>
        <translation>密码保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>The password is not saved: you are asked for it when BatchDesk starts.</source>
        <translation>密码不会保存：每次启动 BatchDesk 时询问。</translation>
    </message>
    <message>
        <source>The language and the limits apply at once.</source>
        <translation>语言和限制立即生效。</translation>
    </message>
    <message>
        <source>&amp;Advanced: database and tuning</source>
        <translation>高级：数据库与性能(&amp;A)</translation>
    </message>
    <message>
        <source>Usually set up once by whoever installs BatchDesk. The database and the number of concurrent tasks take effect at the next start.</source>
        <translation>通常由安装 BatchDesk 的人设置一次。数据库和同时运行的任务数在下次启动时生效。</translation>
    </message>
    <message>
        <source>Mail &amp;server:</source>
        <translation>邮件服务器(&amp;S)：</translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation>端口(&amp;O)：</translation>
    </message>
    <message>
        <source>Securit&amp;y:</source>
        <translation>加密方式(&amp;Y)：</translation>
    </message>
    <message>
        <source>Mail &amp;user:</source>
        <translation>邮件用户名(&amp;U)：</translation>
    </message>
    <message>
        <source>Mail pass&amp;word:</source>
        <translation>邮件密码(&amp;W)：</translation>
    </message>
    <message>
        <source>Se&amp;nder address:</source>
        <translation>发件人地址(&amp;N)：</translation>
    </message>
    <message>
        <source>Attach error files up to (&amp;MB):</source>
        <translation>错误文件附件上限（MB）(&amp;M)：</translation>
    </message>
    <message>
        <source>usual for the security</source>
        <translation>按加密方式的常用端口</translation>
    </message>
    <message>
        <source>empty: feeds send no mail</source>
        <translation>留空：监视文件夹不发邮件</translation>
    </message>
    <message>
        <source>empty: the server takes mail without signing in</source>
        <translation>留空：发信无需登录</translation>
    </message>
    <message>
        <source>None</source>
        <translation>不加密</translation>
    </message>
    <message>
        <source>STARTTLS</source>
        <translation>STARTTLS</translation>
    </message>
    <message>
        <source>SSL/TLS</source>
        <translation>SSL/TLS</translation>
    </message>
    <message>
        <source>Ma&amp;il: the server a feed&apos;s mail goes through</source>
        <translation>邮件：监视文件夹发信用的服务器(&amp;I)</translation>
    </message>
    <message>
        <source>S&amp;end a test mail to the sender</source>
        <translation>给发件人地址发一封测试邮件(&amp;E)</translation>
    </message>
    <message>
        <source>A feed mails its addresses when a file&apos;s import fails or has rows with errors. The mail server applies to tasks that start from now on.</source>
        <translation>文件导入失败或有出错的行时，监视文件夹会发邮件给设定的地址。邮件服务器的设置对此后开始的任务生效。</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>BatchDesk hit an internal error; details are in its log.</source>
        <translation>BatchDesk 遇到内部错误，详细信息已记录在日志中。</translation>
    </message>
    <message>
        <source>BatchDesk hit an internal error; details are in the log: %s</source>
        <translation>BatchDesk 遇到内部错误，详细信息已记录在日志中：%s</translation>
    </message>
    <message>
        <source>Password for %s:</source>
        <translation>%s 的密码：</translation>
    </message>
</context>
<context>
    <name>SubmitPanel</name>
    <message>
        <source>Choose a file to import</source>
        <translation>选择要导入的文件</translation>
    </message>
    <message>
        <source>Spreadsheets (%s)</source>
        <translation>表格文件（%s）</translation>
    </message>
    <message>
        <source>Choose a workbook to import every sheet of</source>
        <translation>选择要导入全部工作表的工作簿</translation>
    </message>
    <message>
        <source>Excel workbooks (%s)</source>
        <translation>Excel 工作簿 (%s)</translation>
    </message>
    <message>
        <source>(from the file&apos;s header)</source>
        <translation>（按文件表头识别）</translation>
    </message>
    <message>
        <source>%1 (cannot be used)</source>
        <translation>%1（无法使用）</translation>
    </message>
    <message>
        <source>Save a template for %s</source>
        <translation>保存“%s”的模板</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>F&amp;ile:</source>
        <translation>文件(&amp;I)：</translation>
    </message>
    <message>
        <source>Choose, type or drop a .csv, .xlsx or .xls file</source>
        <translation>选择、输入或拖入 .csv、.xlsx 或 .xls 文件</translation>
    </message>
    <message>
        <source>File to import</source>
        <translation>要导入的文件</translation>
    </message>
    <message>
        <source>&amp;Choose…</source>
        <translation>选择(&amp;C)…</translation>
    </message>
    <message>
        <source>Import t&amp;ype:</source>
        <translation>导入类型(&amp;Y)：</translation>
    </message>
    <message>
        <source>Import type</source>
        <translation>导入类型</translation>
    </message>
    <message>
        <source>Te&amp;mplate…</source>
        <translation>下载模板(&amp;M)…</translation>
    </message>
    <message>
        <source>Save an empty file with this type&apos;s columns and rules to fill in</source>
        <translation>保存一个带有本类型各列和规则说明的空白文件，填好后即可导入</translation>
    </message>
    <message>
        <source>Download a template for the import type</source>
        <translation>下载导入类型的模板</translation>
    </message>
    <message>
        <source>&amp;Queue…</source>
        <translation>排队导入(&amp;Q)…</translation>
    </message>
    <message>
        <source>Queue the file for import</source>
        <translation>把文件加入导入队列</translation>
    </message>
    <message>
        <source>Vali&amp;date only…</source>
        <translation>仅校验(&amp;D)…</translation>
    </message>
    <message>
        <source>Check every row without importing</source>
        <translation>检查每一行，不导入</translation>
    </message>
</context>
<context>
    <name>TaskActions</name>
    <message>
        <source>The exported file is gone: %s</source>
        <translation>导出的文件已不存在：%s</translation>
    </message>
    <message>
        <source>Preparing the change file of %1…</source>
        <translation>正在准备 %1 的变更文件…</translation>
    </message>
    <message>
        <source>Fetching the file of %1 from the database…</source>
        <translation>正在从数据库取回 %1 的文件…</translation>
    </message>
    <message>
        <source>The file of %1 could not be fetched from the database: %2</source>
        <translation>没能从数据库取回 %1 的文件：%2</translation>
    </message>
    <message>
        <source>The error file is gone: %s</source>
        <translation>错误文件已不存在：%s</translation>
    </message>
    <message>
        <source>The change file of %1 is gone.</source>
        <translation>%1 的变更文件已不存在。</translation>
    </message>
    <message>
        <source>The folder is gone: %s</source>
        <translation>文件夹已不存在：%s</translation>
    </message>
    <message>
        <source>This error file is unchanged since BatchDesk wrote it: its rows would fail again. Correct the cells its last columns name, save the file, then re-import it.</source>
        <translation>这个错误文件自 BatchDesk 写出后还没有改过：直接导入这些行还会失败。请按最后几列说明的原因改正单元格，保存后再导入。</translation>
    </message>
    <message>
        <source>Task %1 has no missing names left to add.</source>
        <translation>任务 %1 已没有要添加的缺少名称。</translation>
    </message>
    <message>
        <source>Another file is being queued; try again in a moment.</source>
        <translation>正在提交另一个文件，请稍后再试。</translation>
    </message>
    <message>
        <source>&amp;Open exported file</source>
        <translation>打开导出文件(&amp;O)</translation>
    </message>
    <message>
        <source>Open the exported file in the spreadsheet application</source>
        <translation>用电子表格程序打开导出的文件</translation>
    </message>
    <message>
        <source>Open &amp;error file</source>
        <translation>打开错误文件(&amp;E)</translation>
    </message>
    <message>
        <source>Open the rows that failed, with the reason, in the spreadsheet application</source>
        <translation>用表格软件打开失败的行及原因</translation>
    </message>
    <message>
        <source>Open result &amp;folder</source>
        <translation>打开结果文件夹(&amp;F)</translation>
    </message>
    <message>
        <source>Show the folder with the task&apos;s files</source>
        <translation>打开存放本任务文件的文件夹</translation>
    </message>
    <message>
        <source>&amp;Re-import fixed error file</source>
        <translation>重新导入修正后的错误文件(&amp;R)</translation>
    </message>
    <message>
        <source>Import the error file after correcting its rows</source>
        <translation>修正错误文件中的行之后再导入</translation>
    </message>
    <message>
        <source>&amp;Cancel task</source>
        <translation>取消任务(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the task; rows already committed stay</source>
        <translation>停止任务；已提交的数据保留</translation>
    </message>
    <message>
        <source>&amp;Undo this import…</source>
        <translation>撤销这次导入(&amp;U)…</translation>
    </message>
    <message>
        <source>Remove the rows this import added and put back the values it changed</source>
        <translation>删除这次导入新增的行，并恢复它修改过的值</translation>
    </message>
    <message>
        <source>Re&amp;try</source>
        <translation>重试(&amp;T)</translation>
    </message>
    <message>
        <source>Run the failed task&apos;s file again</source>
        <translation>重新执行失败任务的文件</translation>
    </message>
    <message>
        <source>Import the re&amp;maining rows</source>
        <translation>导入其余的行(&amp;M)</translation>
    </message>
    <message>
        <source>Go on where this import stopped: the rows already in stay and count as imported, the rest of the file is imported</source>
        <translation>从这次导入停下的地方继续：已导入的行保持不变并计为已导入，只导入文件中剩下的行</translation>
    </message>
    <message>
        <source>&amp;Import for real</source>
        <translation>正式导入(&amp;I)</translation>
    </message>
    <message>
        <source>The validation passed: import the same file now</source>
        <translation>校验已通过：现在正式导入同一个文件</translation>
    </message>
    <message>
        <source>Review the c&amp;hanges…</source>
        <translation>查看变更(&amp;H)…</translation>
    </message>
    <message>
        <source>See each row this dry run would insert, update or delete, then apply exactly those changes or discard them</source>
        <translation>查看这次校验将新增、更新或删除的每一行，然后原样执行这些变更，或者放弃</translation>
    </message>
    <message>
        <source>Look the &amp;names up again</source>
        <translation>重新查找名称(&amp;N)</translation>
    </message>
    <message>
        <source>Look up again the names this import did not find (added to their table since, by you or a colleague) and fill in its rows; adds no name</source>
        <translation>重新查找这次导入没有找到的名称（之后由你或同事添加到表中的），并补全这些行；不会添加任何名称</translation>
    </message>
    <message>
        <source>&amp;Add the missing names and complete</source>
        <translation>添加缺少的名称并补全(&amp;A)</translation>
    </message>
    <message>
        <source>Add the names this import did not find to their table, then fill in the references of its rows</source>
        <translation>把这次导入没有找到的名称添加到对应的表中，然后补全这些行的引用</translation>
    </message>
    <message>
        <source>Fix &amp;values…</source>
        <translation>修正取值(&amp;V)…</translation>
    </message>
    <message>
        <source>Choose the right value for each value this import refused (a level spelt wrong, say), then import its rows that failed only for them</source>
        <translation>为这次导入不接受的每个取值（例如写错的等级）选择正确的值，然后导入只因这些取值而失败的行</translation>
    </message>
    <message>
        <source>&amp;Details</source>
        <translation>详情(&amp;D)</translation>
    </message>
    <message>
        <source>Every field, the warnings and the log of the task</source>
        <translation>任务的全部字段、警告和日志</translation>
    </message>
    <message>
        <source>Open &amp;when done</source>
        <translation>结束后打开(&amp;W)</translation>
    </message>
    <message>
        <source>When this task ends, open its file (the exported file, or the error file if rows failed)</source>
        <translation>任务结束时打开它的文件（导出的文件；有行失败时打开错误文件）</translation>
    </message>
    <message>
        <source>Error file</source>
        <translation>错误文件</translation>
    </message>
    <message>
        <source>Re-import</source>
        <translation>重新导入</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Import the remaining rows</source>
        <translation>导入其余的行</translation>
    </message>
    <message>
        <source>Look the names up again</source>
        <translation>重新查找名称</translation>
    </message>
    <message>
        <source>Add the missing names and complete</source>
        <translation>添加缺少的名称并补全</translation>
    </message>
    <message>
        <source>Fix values</source>
        <translation>修正取值</translation>
    </message>
    <message>
        <source>Review the changes…</source>
        <translation>查看变更…</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
</context>
<context>
    <name>TaskNotices</name>
    <message>
        <source>%1, %2%</source>
        <translation>%1，%2%</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Show the task</source>
        <translation>显示任务</translation>
    </message>
    <message>
        <source> (it ended before the cancel could stop it)</source>
        <translation>（取消生效之前，任务已经结束）</translation>
    </message>
    <message>
        <source>Import the remaining rows</source>
        <translation>导入其余的行</translation>
    </message>
    <message>
        <source> (see the details)</source>
        <translation>（见详情）</translation>
    </message>
    <message>
        <source>Add the missing names and complete</source>
        <translation>添加缺少的名称并补全</translation>
    </message>
    <message>
        <source>Review the changes…</source>
        <translation>查看变更…</translation>
    </message>
    <message>
        <source>Fix values…</source>
        <translation>修正取值…</translation>
    </message>
    <message>
        <source>Open error file</source>
        <translation>打开错误文件</translation>
    </message>
    <message>
        <source>Open the file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>Show the import</source>
        <translation>显示导入任务</translation>
    </message>
    <message>
        <source>The remaining rows of %1 were already continued by %2.</source>
        <translation>%1 的剩余行已由 %2 继续导入。</translation>
    </message>
</context>
<context>
    <name>TaskService</name>
    <message>
        <source>Task %1 could not be cancelled: %2</source>
        <translation>无法取消任务 %1：%2</translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <source>While a task runs: rows per second, and the time left at that speed</source>
        <translation>任务运行时：每秒处理的行数，以及按此速度的剩余时间</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Processed</source>
        <translation>已处理</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>%1 rows per second</source>
        <translation>每秒 %1 行</translation>
    </message>
    <message>
        <source>; about %1 left</source>
        <translation>，约剩 %1</translation>
    </message>
    <message>
        <source>%1 · feed %2</source>
        <translation>%1 · 监视文件夹 %2</translation>
    </message>
</context>
<context>
    <name>TaskTexts</name>
    <message>
        <source>Retry %1 of %2 at %3</source>
        <translation>第 %1 次重试（共 %2 次），%3</translation>
    </message>
    <message>
        <source>Replaced by %1</source>
        <translation>已被 %1 替换</translation>
    </message>
    <message>
        <source>Expired: its files were deleted</source>
        <translation>已过期：文件已删除</translation>
    </message>
    <message>
        <source>A newer export with the same filters (task %1) replaced this file; it was deleted.</source>
        <translation>条件相同的新导出（任务 %1）替换了这个文件，旧文件已删除。</translation>
    </message>
    <message>
        <source>The retention clean-up deleted this task&apos;s files.</source>
        <translation>保留期清理已删除这个任务的文件。</translation>
    </message>
</context>
<context>
    <name>TeamPage</name>
    <message>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <source>clerk</source>
        <translation>职员</translation>
    </message>
    <message>
        <source>%1, no login yet</source>
        <translation>%1，尚无登录</translation>
    </message>
    <message>
        <source>read</source>
        <translation>查看</translation>
    </message>
    <message>
        <source>insert</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>update</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Team</source>
        <translation>团队</translation>
    </message>
    <message>
        <source>The database&apos;s logins and what each may change, per import type. Changes here apply at once on the database server.</source>
        <translation>数据库的各个账号，以及每个账号按导入类型能更改什么。这里的更改立即在数据库服务器上生效。</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Logins</source>
        <translation>账号列表</translation>
    </message>
    <message>
        <source>&amp;Add login…</source>
        <translation>添加账号(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Rights…</source>
        <translation>权限(&amp;R)…</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 — %2 rows, %3 succeeded, %4 failed</source>
        <translation>%1 — 共 %2 行，成功 %3，失败 %4</translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation>显示窗口(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>UndoQuestion</name>
    <message>
        <source>Undo import %1 (%2)?</source>
        <translation>撤销导入 %1（%2）？</translation>
    </message>
    <message>
        <source>Undo import %1?</source>
        <translation>撤销导入 %1？</translation>
    </message>
    <message>
        <source>Undo this import?</source>
        <translation>撤销这次导入？</translation>
    </message>
    <message>
        <source>&amp;Undo the import</source>
        <translation>撤销导入(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keep the rows</source>
        <translation>保留这些行(&amp;K)</translation>
    </message>
    <message>
        <source>The 1 row it added will be removed.</source>
        <translation>它新增的 1 行将被删除。</translation>
    </message>
    <message>
        <source>%1 rows it added will be removed.</source>
        <translation>它新增的 %1 行将被删除。</translation>
    </message>
    <message>
        <source>The 1 row it changed gets its old values back.</source>
        <translation>它修改过的 1 行将恢复原值。</translation>
    </message>
    <message>
        <source>%1 rows it changed get their old values back.</source>
        <translation>它修改过的 %1 行将恢复原值。</translation>
    </message>
    <message>
        <source>The 1 row it deleted will be put back.</source>
        <translation>它删除的 1 行将被放回。</translation>
    </message>
    <message>
        <source>%1 rows it deleted will be put back.</source>
        <translation>它删除的 %1 行将被放回。</translation>
    </message>
    <message>
        <source>A row changed since the import (by hand or by a later import) is kept as it is and listed in the undo&apos;s error file.</source>
        <translation>导入之后又被修改过的行（手工修改或后来的导入）会原样保留，并列在撤销任务的错误文件里。</translation>
    </message>
</context>
<context>
    <name>ValueFixDialog</name>
    <message>
        <source>Fix values of %1</source>
        <translation>修正 %1 的取值</translation>
    </message>
    <message>
        <source>1 row of this import failed for a value its column does not allow. Choose the right value; a value left at “%2” is not changed, its row stays in the error file.</source>
        <translation>这次导入有 1 行因为取值不在该列允许的范围内而失败。请选择正确的值；保留为%2的取值不会修改，这一行仍留在错误文件里。</translation>
    </message>
    <message>
        <source>%1 rows of this import failed for a value their column does not allow. Choose the right value for each; a value left at “%2” is not changed, its rows stay in the error file.</source>
        <translation>这次导入有 %1 行因为取值不在该列允许的范围内而失败。请为每个取值选择正确的值；保留为%2的取值不会修改，它的行仍留在错误文件里。</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Value in the file</source>
        <translation>文件中的值</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>Change it to</source>
        <translation>改为</translation>
    </message>
    <message>
        <source>Change %1 to</source>
        <translation>把 %1 改为</translation>
    </message>
    <message>
        <source>&amp;Remember for next time, in the profile:</source>
        <translation>记住，下次自动使用，保存到映射配置(&amp;R)：</translation>
    </message>
    <message>
        <source>Save these mappings into the profile as its new version: the next import with it takes these values as the right ones</source>
        <translation>把这些对应关系存为映射配置的新版本：下次使用它导入时，这些取值会自动改为正确的值</translation>
    </message>
    <message>
        <source>&amp;Fix the rows</source>
        <translation>修正这些行(&amp;F)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>(leave as is)</source>
        <translation>（保持不变）</translation>
    </message>
</context>
<context>
    <name>ViewOptions</name>
    <message>
        <source>No finished task to clear.</source>
        <translation>没有可清除的已结束任务。</translation>
    </message>
    <message>
        <source>Finished tasks cleared from the list: %1. Nothing is deleted.</source>
        <translation>已从列表中清除 %1 个已结束的任务，没有删除任何数据。</translation>
    </message>
    <message>
        <source>Show them again</source>
        <translation>重新显示</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Task</source>
        <translation>任务(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open file…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <source>Choose a file to import</source>
        <translation>选择要导入的文件</translation>
    </message>
    <message>
        <source>Q&amp;ueue the file…</source>
        <translation>排队导入该文件(&amp;U)…</translation>
    </message>
    <message>
        <source>Import &amp;every sheet…</source>
        <translation>导入全部工作表(&amp;E)…</translation>
    </message>
    <message>
        <source>A workbook of several tables: each sheet as the import type its name or header matches</source>
        <translation>含多张表的工作簿：每个工作表按名称或表头对应的导入类型导入</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Export a table to a CSV or Excel file, with filters</source>
        <translation>按条件把数据导出为 CSV 或 Excel 文件</translation>
    </message>
    <message>
        <source>&amp;Feeds…</source>
        <translation>监视文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Watched folders: each file dropped into one is imported, then moved aside</source>
        <translation>监视文件夹：放进文件夹的每个文件都会导入，然后移到一旁</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Co&amp;py rows</source>
        <translation>复制行(&amp;P)</translation>
    </message>
    <message>
        <source>Copy the selected rows as text, with the column names, to paste into a spreadsheet</source>
        <translation>把选中的行连同列名复制为文本，可粘贴到电子表格</translation>
    </message>
    <message>
        <source>&amp;Find tasks</source>
        <translation>查找任务(&amp;F)</translation>
    </message>
    <message>
        <source>Failed &amp;list</source>
        <translation>失败清单(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;All tasks</source>
        <translation>全部任务(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Go to the task list</source>
        <translation>转到任务列表(&amp;G)</translation>
    </message>
    <message>
        <source>Show &amp;system tasks</source>
        <translation>显示系统任务(&amp;S)</translation>
    </message>
    <message>
        <source>Also list the tasks BatchDesk queues itself: the daily clean-up and reference completions</source>
        <translation>同时列出 BatchDesk 自己提交的任务：每日清理和补全关联</translation>
    </message>
    <message>
        <source>&amp;Clear finished tasks</source>
        <translation>清除已结束的任务(&amp;C)</translation>
    </message>
    <message>
        <source>Hide the tasks that have ended from the list; nothing is deleted</source>
        <translation>从列表中隐藏已结束的任务；不会删除任何数据</translation>
    </message>
    <message>
        <source>Show cl&amp;eared tasks</source>
        <translation>显示已清除的任务(&amp;E)</translation>
    </message>
    <message>
        <source>List the cleared tasks again</source>
        <translation>重新列出已清除的任务</translation>
    </message>
    <message>
        <source>Show a&amp;rchived tasks</source>
        <translation>显示已归档的任务(&amp;R)</translation>
    </message>
    <message>
        <source>Tasks that ended long ago, which the daily clean-up moved to the archive</source>
        <translation>很久以前已结束、被每日清理移入归档的任务</translation>
    </message>
    <message>
        <source>Fi&amp;t columns to the window</source>
        <translation>列宽适应窗口(&amp;T)</translation>
    </message>
    <message>
        <source>BatchDesk &amp;help</source>
        <translation>BatchDesk 帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About BatchDesk</source>
        <translation>关于 BatchDesk(&amp;A)</translation>
    </message>
    <message>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Task actions</source>
        <translation>任务操作</translation>
    </message>
</context>
<context>
    <name>WorkbookDialog</name>
    <message>
        <source>Validate</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>加入队列</translation>
    </message>
    <message>
        <source>Import every sheet: %1</source>
        <translation>导入全部工作表：%1</translation>
    </message>
    <message>
        <source>Each sheet is imported as the import type its name or header matches, one after another, a sheet whose references look up another sheet&apos;s table after that sheet. A sheet that matches no type, or several, is skipped.</source>
        <translation>每个工作表按其名称或表头对应的导入类型逐个导入；引用另一个工作表数据的工作表排在那个工作表之后。对应不到任何类型、或同时对应多个类型的工作表会被跳过。</translation>
    </message>
    <message>
        <source>Sheet</source>
        <translation>工作表</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>顺序</translation>
    </message>
    <message>
        <source>Imported as</source>
        <translation>导入为</translation>
    </message>
    <message>
        <source>Validate only (commit nothing)</source>
        <translation>仅校验（不写入任何数据）</translation>
    </message>
    <message>
        <source>%1 (not allowed)</source>
        <translation>%1（无权导入）</translation>
    </message>
    <message>
        <source>Cannot queue: %1</source>
        <translation>无法排队导入：%1</translation>
    </message>
</context>
</TS>
