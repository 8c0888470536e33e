"""`aos-solve serve`: listens on 127.0.0.1 only, prints its address, stops cleanly on Ctrl-C, refuses a busy port."""
from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent


def start(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "solver", "serve", "--quiet", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_serve_prints_a_loopback_address_and_ctrl_c_stops_it():
    proc = start()
    try:
        line = proc.stdout.readline()
        assert line.startswith("aos-solve app: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200 and b"aos-solve" in page.read()
        with urllib.request.urlopen(url + "api/boards", timeout=10) as answer:
            assert b"easter-island" in answer.read()
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        # bound to loopback only: the port is not open on the machine's other addresses
        for fam, _, _, _, addr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not addr[0].startswith("127."):
                with socket.socket(fam, socket.SOCK_STREAM) as s:
                    s.settimeout(1)
                    assert s.connect_ex((addr[0], port)) != 0
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "stopped" in err and "Traceback" not in err


def test_a_busy_port_is_one_message_and_exit_2():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        proc = start("--port", str(busy.getsockname()[1]))
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "--port" in err and "cannot listen on 127.0.0.1" in err and "Traceback" not in err
