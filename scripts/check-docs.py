#!/usr/bin/env python3
"""Checks the project's Markdown: links, command blocks and generated tables.

Every tracked *.md file is read. The check fails when:
- a relative link names a file that does not exist, or an anchor that no
  heading of that file makes (GitHub's heading slugs);
- a ```sh or ```bash block has no marker on the line before it. The markers:
    <!-- ci: run -->            CI runs the block (bash -euo pipefail, repo root)
    <!-- ci: skip: REASON -->   not run, and why (a GPU, the whole CI itself...)
    <!-- ci: write PATH -->     any language: the block is written to PATH
                                (relative to the repo root) before later blocks run
- a generated table's opening marker <!-- table: SCRIPT [ARGS] --> names no
  script of the repo, or has no <!-- end table --> after it
  (scripts/update-doc-tables.py rewrites those tables from the script's output).

With --run, the marked blocks run too, file by file, in the order they appear.
Usage: scripts/check-docs.py [--run] [FILE.md ...]
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
MARKER = re.compile(r"^<!-- ci: (run|skip: .+|write \S+) -->$")
TABLE_OPEN = re.compile(r"^<!-- table: (\S+)(.*) -->$")
TABLE_CLOSE = "<!-- end table -->"
SHELL = {"sh", "bash"}


def markdown_files(args):
    if args:
        return [os.path.abspath(a) for a in args]
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    return [os.path.join(ROOT, f) for f in out]


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`|\*\*|\*", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def parse(path):
    """Returns (headings' anchors, links with line numbers, blocks, errors)."""
    anchors, links, blocks, errors = set(), [], [], []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rel = os.path.relpath(path, ROOT)
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            indent, mark, lang = fence.groups()
            start = i
            i += 1
            body = []
            while i < len(lines) and not lines[i].strip().startswith(mark):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            if i == len(lines):
                errors.append(f"{rel}:{start + 1}: code block never closed")
            prev = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
            marker = MARKER.match(prev)
            kind = marker.group(1) if marker else None
            if lang in SHELL and kind is None:
                errors.append(f"{rel}:{start + 1}: ```{lang} block without a <!-- ci: run --> or "
                              "<!-- ci: skip: why --> marker on the line before it")
            if kind == "run" and lang not in SHELL:
                errors.append(f"{rel}:{start + 1}: only sh/bash blocks can be run")
            if kind:
                blocks.append((start + 1, kind, "\n".join(body) + "\n"))
            i += 1
            continue
        if line.startswith("#"):
            anchors.add(slug(line.lstrip("#")))
        opened = TABLE_OPEN.match(line.strip())
        if opened:
            script = opened.group(1)
            if not os.path.isfile(os.path.join(ROOT, script)):
                errors.append(f"{rel}:{i + 1}: generated table names '{script}', which is not a file")
            if TABLE_CLOSE not in (l.strip() for l in lines[i + 1:]):
                errors.append(f"{rel}:{i + 1}: generated table without {TABLE_CLOSE}")
        for m in LINK.finditer(line):
            links.append((i + 1, m.group(1)))
        i += 1
    return anchors, links, blocks, errors


def check_links(path, links, anchors_of):
    errors = []
    rel = os.path.relpath(path, ROOT)
    for lineno, target in links:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(dest):
            errors.append(f"{rel}:{lineno}: link to '{target}': no such file")
            continue
        if anchor and dest.endswith(".md"):
            if dest not in anchors_of:
                anchors_of[dest] = parse(dest)[0]
            if anchor not in anchors_of[dest]:
                errors.append(f"{rel}:{lineno}: link to '{target}': no heading makes #{anchor}")
    return errors


def run_blocks(path, blocks):
    rel = os.path.relpath(path, ROOT)
    ran = 0
    for lineno, kind, body in blocks:
        if kind.startswith("write "):
            dest = os.path.join(ROOT, kind[len("write "):])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "w", encoding="utf-8") as f:
                f.write(body)
        elif kind == "run":
            print(f"--- {rel}:{lineno}", flush=True)
            result = subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=ROOT)
            if result.returncode != 0:
                return ran, f"{rel}:{lineno}: block exited with {result.returncode}"
            ran += 1
    return ran, None


def main():
    args = sys.argv[1:]
    run = "--run" in args
    files = markdown_files([a for a in args if a != "--run"])
    errors, anchors_of, parsed = [], {}, []
    for path in files:
        anchors, links, blocks, errs = parse(path)
        anchors_of[path] = anchors
        parsed.append((path, links, blocks))
        errors += errs
    n_links = 0
    for path, links, _ in parsed:
        errors += check_links(path, links, anchors_of)
        n_links += len(links)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        print(f"docs: {len(errors)} problem(s) in {len(files)} files", file=sys.stderr)
        return 1
    n_run = 0
    if run:
        for path, _, blocks in parsed:
            ran, failure = run_blocks(path, blocks)
            n_run += ran
            if failure:
                print(failure, file=sys.stderr)
                return 1
    print(f"docs: {len(files)} files, {n_links} links resolve" +
          (f", {n_run} command blocks ran" if run else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
