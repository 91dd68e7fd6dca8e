"""BatchDesk: a desktop async task center for batch imports and exports."""

__version__ = "0.1.0"
APP_NAME = "BatchDesk"
