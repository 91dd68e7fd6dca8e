"""The window's menus and toolbar: which action sits where, its words, its shortcut and its icon."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QStyle, QToolBar

from desktop_app.ui.task_actions import TaskActions
from desktop_app.ui.texts import without_mnemonic

SP = QStyle.StandardPixmap


class WindowMenus(QObject):
    """Builds the menu bar (File, Task, View, Help), the toolbar and the list's context menu. The window
    connects what the actions do; the per-task actions come from TaskActions."""

    def __init__(self, window: QMainWindow, task_actions: TaskActions, details_action: QAction) -> None:
        super().__init__(window)
        self._window = window
        make = self._action
        self.open_action = make(QKeySequence.StandardKey.Open, SP.SP_DialogOpenButton)
        self.queue_action = make(QKeySequence("Ctrl+Return"))
        self.workbook_action = make(None)
        self.export_action = make(QKeySequence("Ctrl+Shift+X"), SP.SP_DialogSaveButton)
        self.feeds_action = make(None, SP.SP_DirLinkIcon)
        self.settings_action = make(QKeySequence("Ctrl+,"))
        self.quit_action = make(QKeySequence.StandardKey.Quit)
        self.copy_action = make(QKeySequence.StandardKey.Copy)
        self.find_action = make(QKeySequence.StandardKey.Find)
        self.failed_action = make(QKeySequence("Ctrl+Shift+F"))
        self.all_action = make(QKeySequence("Ctrl+Shift+A"))
        self.list_action = make(QKeySequence("Ctrl+L"))
        self.system_action = make(None, checkable=True)
        self.clear_action = make(QKeySequence("Ctrl+Shift+Del"))
        self.cleared_action = make(None, checkable=True)
        self.archived_action = make(None, checkable=True)
        self.fit_action = make(None)
        self.help_action = make(QKeySequence.StandardKey.HelpContents, SP.SP_DialogHelpButton)
        self.about_action = make(None)
        icons = {task_actions.open_errors: SP.SP_MessageBoxWarning, task_actions.open_folder: SP.SP_DirOpenIcon,
                 task_actions.reimport: SP.SP_BrowserReload, task_actions.retry: SP.SP_MediaPlay,
                 task_actions.cancel: SP.SP_BrowserStop, task_actions.details: SP.SP_FileDialogDetailedView,
                 task_actions.open_result: SP.SP_FileIcon, task_actions.undo: SP.SP_ArrowBack}  # fmt: skip
        for action, pixmap in icons.items():
            action.setIcon(window.style().standardIcon(pixmap))

        bar = window.menuBar()
        self.file_menu, self.task_menu, self.view_menu, self.help_menu = (QMenu(window) for _ in range(4))
        for menu in (self.file_menu, self.task_menu, self.view_menu, self.help_menu):
            bar.addMenu(menu)
        self.file_menu.addActions([self.open_action, self.queue_action, self.workbook_action, self.export_action])
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.feeds_action)
        self.file_menu.addSeparator()
        self.file_menu.addActions([self.settings_action, self.quit_action])
        self.task_menu.addActions(task_actions.all())
        self.task_menu.addSeparator()
        self.task_menu.addAction(self.copy_action)
        self.view_menu.addActions([self.find_action, self.failed_action, self.all_action, self.list_action])
        self.view_menu.addSeparator()
        self.view_menu.addAction(details_action)
        self.view_menu.addSeparator()
        self.view_menu.addActions([self.clear_action, self.cleared_action, self.system_action, self.archived_action,
                                   self.fit_action])  # fmt: skip
        self.help_menu.addActions([self.help_action, self.about_action])

        self.context_menu = QMenu(window)  # built once; its actions are shared with the Task menu
        self.context_menu.addActions(task_actions.all())
        self.context_menu.addSeparator()
        self.context_menu.addAction(self.copy_action)

        # The toolbar: what a clerk does every day. Everything else is in the menus and the context menu.
        toolbar = QToolBar(window)
        toolbar.setObjectName("task_toolbar")
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addActions([self.open_action, self.export_action])
        toolbar.addSeparator()
        toolbar.addActions([task_actions.open_errors, task_actions.reimport, task_actions.retry, task_actions.cancel])
        toolbar.addSeparator()
        toolbar.addAction(task_actions.details)
        window.addToolBar(toolbar)
        self.toolbar = toolbar
        self.retranslate()

    def _action(self, shortcut: QKeySequence | QKeySequence.StandardKey | None,
                pixmap: QStyle.StandardPixmap | None = None, *, checkable: bool = False) -> QAction:  # fmt: skip
        action = QAction(self._window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if pixmap is not None:
            action.setIcon(self._window.style().standardIcon(pixmap))
        action.setCheckable(checkable)
        return action

    def retranslate(self) -> None:
        self.file_menu.setTitle(self.tr("&File"))
        self.task_menu.setTitle(self.tr("&Task"))
        self.view_menu.setTitle(self.tr("&View"))
        self.help_menu.setTitle(self.tr("&Help"))
        texts = {
            self.open_action: (self.tr("&Open file…"), self.tr("Choose a file to import")),
            self.queue_action: (self.tr("Q&ueue the file…"), ""),
            self.workbook_action: (self.tr("Import &every sheet…"),
                                   self.tr("A workbook of several tables: each sheet as the import type its name or "
                                           "header matches")),
            self.export_action: (self.tr("E&xport…"), self.tr("Export a table to a CSV or Excel file, with filters")),
            self.feeds_action: (self.tr("&Feeds…"), self.tr("Watched folders: each file dropped into one is "
                                                            "imported, then moved aside")),
            self.settings_action: (self.tr("&Settings…"), ""),
            self.quit_action: (self.tr("&Quit"), ""),
            self.copy_action: (self.tr("Co&py rows"), self.tr("Copy the selected rows as text, with the column "
                                                              "names, to paste into a spreadsheet")),
            self.find_action: (self.tr("&Find tasks"), ""),
            self.failed_action: (self.tr("Failed &list"), ""),
            self.all_action: (self.tr("&All tasks"), ""),
            self.list_action: (self.tr("&Go to the task list"), ""),
            self.system_action: (self.tr("Show &system tasks"),
                                 self.tr("Also list the tasks BatchDesk queues itself: the daily clean-up and "
                                         "reference completions")),
            self.clear_action: (self.tr("&Clear finished tasks"),
                                self.tr("Hide the tasks that have ended from the list; nothing is deleted")),
            self.cleared_action: (self.tr("Show cl&eared tasks"), self.tr("List the cleared tasks again")),
            self.archived_action: (self.tr("Show a&rchived tasks"),
                                   self.tr("Tasks that ended long ago, which the daily clean-up moved to the archive")),
            self.fit_action: (self.tr("Fi&t columns to the window"), ""),
            self.help_action: (self.tr("BatchDesk &help"), ""),
            self.about_action: (self.tr("&About BatchDesk"), ""),
        }  # fmt: skip
        for action, (text, tip) in texts.items():
            action.setText(text)
            action.setToolTip(tip or without_mnemonic(text))
            action.setStatusTip(tip)
        self.open_action.setIconText(self.tr("Open file"))
        self.export_action.setIconText(self.tr("Export"))
        self.toolbar.setWindowTitle(self.tr("Task actions"))
        # A toolbar button shows iconText; Qt derives it from the menu text, mnemonic and all.
        for action in self.toolbar.actions():
            if not action.isSeparator():
                action.setIconText(without_mnemonic(action.iconText()))
