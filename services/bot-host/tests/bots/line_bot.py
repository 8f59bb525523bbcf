#!/usr/bin/env python3
"""A Dou Dizhu line-protocol bot for bot-host's tests (docs/ddz-line-protocol.md).

    line_bot.py MODE [LOG]

MODE says how it answers the first request it is asked (and, for `first`, every request):
  first    the first choice the request lists
  busy     no answer: it spins on the CPU forever (to hit a CPU-time limit)
  silent   no answer: it sleeps
  garbage  a line that is not part of the protocol
  crash    it exits with an error message on stderr
  hog      it tries to allocate 2 GiB (to hit a memory limit)
  spawn    like silent, after starting a `sleep` child process (to check that the whole
           process group is killed)
LOG, when given, is a file in the working directory where it writes `pid N` (and `child N`
in spawn mode), `files NAME...` (what its working directory held before it made LOG), `cwd DIR`, `home DIR`, `env NAME...`, `procs PID...` (the processes it can
see) and `leaks N` (how many of their /proc environ and cmdline files it could read that
mention CARGO, as its host's do), then every line it is sent.
"""
import os
import subprocess
import sys
import time


def say(line):
    print(line, flush=True)


def answer_first_choice(words):
    # ask KIND MS CHOICE...
    kind, choices = words[1], words[3:]
    if kind == "bid":
        say("bid " + choices[0])
    elif kind == "play":
        say("# thinking about " + str(len(choices)) + " moves")
        say("play " + choices[0])
    else:
        say("double 0")


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "first"
    files = sorted(os.listdir("."))
    log = open(sys.argv[2], "w") if len(sys.argv) > 2 else None
    if log:
        log.write("pid %d\n" % os.getpid())
        log.write("files %s\n" % " ".join(files))
        log.write("cwd %s\n" % os.getcwd())
        log.write("home %s\n" % os.environ.get("HOME", ""))
        log.write("env %s\n" % " ".join(sorted(os.environ)))
        procs = sorted(p for p in os.listdir("/proc") if p.isdigit()) if os.access("/proc", os.R_OK) else []
        log.write("procs %s\n" % " ".join(procs))
        leaks = 0
        for p in procs:
            for name in ("environ", "cmdline"):
                try:
                    with open("/proc/%s/%s" % (p, name), "rb") as f:
                        leaks += b"CARGO" in f.read()
                except OSError:
                    pass
        log.write("leaks %d\n" % leaks)
        if mode == "spawn":
            child = subprocess.Popen(["sleep", "3600"])
            log.write("child %d\n" % child.pid)
        log.flush()
    say("join line-test")
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        words = line.split()
        if not words or words[0] != "ask":
            if words and words[0] == "bye":
                return
            continue
        if mode == "busy":
            n = 0
            while True:
                n += 1
        elif mode in ("silent", "spawn"):
            time.sleep(3600)
        elif mode == "garbage":
            say("plya 33")
        elif mode == "hog":
            hoard = bytearray(2 * 1024 * 1024 * 1024)
            say("bid %d" % hoard[0])
        elif mode == "crash":
            sys.exit("crashing on purpose at " + words[1])
        else:
            answer_first_choice(words)


if __name__ == "__main__":
    main()
