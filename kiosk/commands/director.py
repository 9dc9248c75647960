"""`kiosk director`: the master score sheet server for the tournament director.

Starts the director's web app (Starlette on uvicorn, see docs/director-stack.md)
with the tournament in one SQLite file under `--data`,
and says in plain words where to open it, where the kiosks connect, where
the data lives and the PIN for signing in from another device.
"""

from __future__ import annotations

import argparse
import signal
import sys
import urllib.parse
from pathlib import Path

from kiosk.cli import UsageError

DB_NAME = "director.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        type=Path,
        default=Path("var/director"),
        help="folder for the tournament's database (default: var/director)",
    )
    parser.add_argument("--port", type=int, default=8555, help="port to listen on (default 8555)")
    parser.add_argument(
        "--host",
        default="0.0.0.0",
        help="address to listen on (default: every network, so the kiosks can reach it)",
    )
    parser.add_argument(
        "--public-url",
        default="",
        help="how kiosks reach this server, for the QR codes (default: this computer's address)",
    )
    parser.add_argument(
        "--poll",
        type=float,
        default=3.0,
        help="seconds between live updates in a browser without server-sent events",
    )
    parser.add_argument(
        "--tls-port",
        type=int,
        default=None,
        help="port of the TLS listener kiosks and signed-in phones use "
        "(default: --port + 1; the certificate is made in --data)",
    )
    parser.add_argument(
        "--no-tls",
        action="store_true",
        help="no TLS listener: kiosks post over plain HTTP (a trusted network only)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request")


def _stop(signum: int, frame: object) -> None:
    """SIGTERM stops the server the same way Ctrl+C does."""
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    from kiosk.director.app import App
    from kiosk.director.server import Server, bind, raise_file_limit
    from kiosk.director.store import Database
    from kiosk.director.tls import ensure_certificate
    from kiosk.director.tournament import Director
    from kiosk.director.web import lan_address

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    if not 0.2 <= args.poll <= 3600:
        raise UsageError(f"--poll must be 0.2 to 3600 seconds, not {args.poll}")
    data: Path = args.data
    if data.exists() and not data.is_dir():
        raise UsageError(f"--data {data} is a file; give a folder")
    try:
        db = Database(data / DB_NAME)
    except OSError as problem:
        raise UsageError(f"cannot use {data}: {problem.strerror or problem}") from None
    director = Director(db)
    app = App(director, poll_seconds=args.poll)
    try:
        sock = bind(args.host, args.port)
    except OSError as problem:
        db.close()
        raise UsageError(
            f"cannot listen on port {args.port}: {problem.strerror or problem}"
        ) from None
    port = sock.getsockname()[1]
    lan = args.host if args.host not in ("0.0.0.0", "::", "") else lan_address()
    public = args.public_url.rstrip("/") or f"http://{lan}:{port}"
    app.public_url = public
    app.extra_hosts |= {h for h in (args.host, lan) if h not in ("0.0.0.0", "::", "")}
    certificate, secure = None, None
    if not args.no_tls:
        tls_port = (port + 1 if args.port else 0) if args.tls_port is None else args.tls_port
        if not 0 <= tls_port <= 65535:
            raise UsageError(f"--tls-port must be 0 to 65535, not {tls_port}")
        try:
            secure = bind(args.host, tls_port)
        except OSError as problem:
            sock.close()
            db.close()
            raise UsageError(f"cannot listen on port {tls_port} for TLS: "
                             f"{problem.strerror or problem}; give another --tls-port") from None
        host = urllib.parse.urlsplit(public).hostname or lan
        certificate = ensure_certificate(data, app.hosts() | {host})
        app.secure_url = f"https://{host}:{secure.getsockname()[1]}"
        app.fingerprint = certificate.fingerprint
    raise_file_limit()
    settings = director.settings()
    print("Euchre director is running.", flush=True)
    print(f"  Open on this computer:   http://127.0.0.1:{port}/")
    print(f"  Players' phones use:     {public}/")
    if certificate is not None:
        print(f"  Kiosks pair over TLS:    {app.secure_url}/ (by the QR codes)")
        print(f"  Certificate fingerprint: {certificate.fingerprint}")
    print(f"  Tournament data file:    {(data / DB_NAME).resolve()}")
    print(f"  PIN for other devices:   {director.pin}")
    named = settings.name if settings else "not set up yet: open the page"
    print(f"  Tournament:              {named}")
    print("Press Ctrl+C to stop. Results are saved as they arrive.", flush=True)
    # uvicorn stops gracefully on SIGINT/SIGTERM and then raises the signal again;
    # the handler below turns that second SIGTERM into the same clean exit as Ctrl+C.
    signal.signal(signal.SIGTERM, _stop)
    try:
        Server(app, verbose=args.verbose, certificate=certificate,
               secure_sockets=[secure] if secure is not None else None).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        print("Stopping the director; the data is saved.", file=sys.stderr)
        sock.close()
        if secure is not None:
            secure.close()
        db.close()
    return 0
