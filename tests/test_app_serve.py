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


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_ctrl_c_with_a_solve_running_stops_its_worker_too():
    import json
    import time
    proc = start()
    workers: list[int] = []
    try:
        url = proc.stdout.readline().split()[2]
        request = urllib.request.Request(url + "api/solve", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"tab": "t", "board": "easter-island", "difficulty": "hard",
                                                          "seed": 1}).encode())
        with urllib.request.urlopen(request, timeout=60) as answer:
            job = json.loads(answer.read())
        end = time.monotonic() + 60
        while time.monotonic() < end:
            with urllib.request.urlopen(url + f"api/jobs/{job['id']}", timeout=10) as answer:
                if json.loads(answer.read())["progress"]:
                    break
            time.sleep(0.2)
        workers = [w for server in _children(proc.pid) for w in _children(server)]  # forkserver -> worker
        assert workers, "no worker process found under the server's forkserver"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err, err
    end = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a worker outlived the server"
