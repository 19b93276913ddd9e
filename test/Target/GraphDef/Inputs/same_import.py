"""Imports each text GraphDef given and its binary version (made at build
time under PB_DIR, same relative path) with tracec-translate, and checks
that both give the same module, or the same errors (the file names
aside), with the same exit code.

  same_import.py SRC_DIR PB_DIR graph.pbtxt...
"""
import os
import subprocess
import sys


def translate(path):
    run = subprocess.run(["tracec-translate", "--import-graphdef", path],
                         capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr.replace(path, "FILE")


src_dir, pb_dir, graphs = sys.argv[1], sys.argv[2], sys.argv[3:]
for graph in graphs:
    text = translate(os.path.join(src_dir, graph))
    binary = translate(os.path.join(pb_dir, graph[:-len(".pbtxt")] + ".pb"))
    assert text == binary, (graph, text, binary)
print(f"{len(graphs)} graphs import the same from text and binary")
