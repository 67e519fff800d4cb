#!/usr/bin/env python3
"""Atomically swaps two paths (renameat2 RENAME_EXCHANGE) in a tight loop for a bounded time.

usage: rename-exchange.py PATH_A PATH_B SECONDS
Prints "ready" after the first swap; stops after SECONDS or on SIGTERM, and prints the number
of swaps done. An even count leaves both paths as they started; an odd one
is followed by one more swap, so the caller always finds the tree as it left it.
Exit status 3 when the kernel or file system cannot exchange (the caller should skip).
"""
import ctypes
import os
import signal
import sys
import time

AT_FDCWD = -100
RENAME_EXCHANGE = 2


def main():
    a, b, seconds = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), float(sys.argv[3])
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, 'renameat2', None)
    if renameat2 is None:
        print('renameat2 is not in this libc', file=sys.stderr)
        return 3
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]

    def swap():
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))

    try:
        swap()
    except OSError as err:
        print(f'RENAME_EXCHANGE failed: {err}', file=sys.stderr)
        return 3
    swaps = 1
    print('ready', flush=True)
    deadline = time.monotonic() + seconds
    while not stop and time.monotonic() < deadline:
        swap()
        swaps += 1
    if swaps % 2:
        swap()
        swaps += 1
    print(swaps)
    return 0


if __name__ == '__main__':
    sys.exit(main())
