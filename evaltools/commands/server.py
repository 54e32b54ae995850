"""`evaltools server`: the Language Server Protocol over stdio, for editors."""

from __future__ import annotations


def run() -> int:
    # pygls and lsprotocol load here only: no other command pays for them.
    from evaltools.server.protocol import serve

    return serve()
