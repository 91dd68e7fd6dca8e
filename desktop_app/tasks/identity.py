"""Who owns a running task: host, process id, process start time and a fresh token per start."""

from __future__ import annotations

import os
import secrets
import socket


def host_name() -> str:
    return socket.gethostname()[:80] or "localhost"


def make_owner() -> str:
    """A fresh owner id per process start: a restarted worker never heartbeats for its dead tasks."""
    import psutil  # here: only a worker asks (11 ms of the start of every command that runs none)

    pid = os.getpid()
    started = int(psutil.Process(pid).create_time())
    return f"{host_name()}:{pid}:{started}:{secrets.token_hex(4)}"


def owner_alive(owner: str) -> bool:
    """Whether the process named in an owner id of this host still exists (same pid AND start time,
    so a recycled pid does not keep a dead owner's task)."""
    try:
        _host, pid_text, started_text, _token = owner.rsplit(":", 3)
        pid, started = int(pid_text), int(started_text)
    except ValueError:
        return True  # not ours to judge; the heartbeat threshold will decide
    import psutil

    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return False
        return int(proc.create_time()) == started
    except psutil.NoSuchProcess:
        return False
    except psutil.Error:
        return True
