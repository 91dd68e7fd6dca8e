"""PyMySQL connections that share one TLS context per process for the server's optional TLS."""

from __future__ import annotations

import ssl
import threading
from typing import Any

import pymysql.connections

_lock = threading.Lock()
_preferred: ssl.SSLContext | None = None


class SharedTlsConnection(pymysql.connections.Connection):
    """PyMySQL (1.2) tries TLS on every connection that asks for none ("preferred": used when the server
    offers it) and builds a new default SSL context for each, reading the system's certificate store
    again: ~45 ms of CPU per connection, most of what a short command spent connecting. The context it
    builds is the same every time (no CA, no certificate check, as PyMySQL's own), so one serves every
    connection of the process; a URL's own ssl_* settings still get their own context."""

    def _create_ssl_ctx(self, sslp: Any) -> Any:
        global _preferred
        if sslp != {}:
            return super()._create_ssl_ctx(sslp)
        with _lock:
            if _preferred is None:
                _preferred = super()._create_ssl_ctx({})
            return _preferred
