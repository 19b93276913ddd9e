"""The directory, relative to an install prefix, where this Python finds
packages installed under that prefix (for `cmake --install`).

    python3 site_dir.py PREFIX

A directory of sys.path in PREFIX's lib (site-packages or dist-packages;
not /usr/local's under /usr) if there is one, else this Python's platlib
layout under PREFIX."""
import os
import sys
import sysconfig


def site_dir(prefix):
    prefix = os.path.realpath(prefix)
    for entry in sys.path:
        path = os.path.realpath(entry)
        relative = os.path.relpath(path, prefix)
        if os.path.basename(path) in ("site-packages", "dist-packages") \
                and relative.startswith("lib"):
            return relative
    platlib = sysconfig.get_path("platlib", "posix_prefix",
                                 vars={"base": prefix, "platbase": prefix})
    return os.path.relpath(platlib, prefix)


if __name__ == "__main__":
    print(site_dir(sys.argv[1]))
