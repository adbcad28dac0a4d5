#!/usr/bin/python3
"""check_page_outputs.py on small pages whose commands print known text: a page that matches passes, a
figure moved by its last digit fails naming the row, a column marked not compared is left out, a heading
that is not the table's is refused, --only and --except choose the markers, a paragraph's printed figures
must be both the paragraph's and the output's (dollar figures read as numbers), and a table inside a list item is read, its percentages
matched to a report's "N %".

    test_check_page_outputs.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(sys.argv[1], "tests", "docs", "check_page_outputs.py")

TABLE = """<!-- figures of: printf 'run-a  12  64  8.74 ms  +1.95\\nrun-a-fp8  12  64  5.29 ms  +1.87\\n' -->
<!-- not compared: wall -->
| run | layers | micro-batches | compute, bf16 | compute, fp8 | unaccounted, bf16 | unaccounted, fp8 | wall |
|---|---|---|---|---|---|---|---|
| A | 12 | 64 | {compute} ms | 5.29 ms | 1.95 ms | 1.87 ms | 3.1 s |
"""
PROSE = """<!-- figures of: echo 'mean absolute error: 6.5%, largest 15.5%' -->
<!-- printed: {listed} -->
The rows come out within 15% ({mean}; one row 15.5% slow).
"""
INDENTED = """- a list item's table, read from a report that prints "40.4 %", compared as 40.4%:

  <!-- figures of: printf 'exposed communication   5.427 s  {percent} %%\\n' -->
  | term | s | share |
  |---|---|---|
  | exposed communication | 5.427 | 40.4% |
"""
DOLLARS = """<!-- figures of: echo 'cost per million tokens   {printed}' -->
<!-- printed: 0.004274 -->
A million tokens cost $0.004274.
"""
BLOCK = """<!-- output of: echo 'result: 3 held' -->
```
result: 3 held
```
"""


def check(page_text, *options):
    with tempfile.TemporaryDirectory() as tmp:
        for folder in ("scenarios", "models", "topologies", "workloads", "analysis", "examples"):
            os.mkdir(os.path.join(tmp, folder))
        page = os.path.join(tmp, "page.md")
        with open(page, "w", encoding="utf-8") as f:
            f.write(page_text)
        return subprocess.run(["/usr/bin/python3", CHECKER, "/bin/true", tmp, tmp, page, *options],
                              capture_output=True, text=True)


def main():
    good = check(TABLE.format(compute="8.74") + BLOCK)
    assert good.returncode == 0, good.stderr
    assert "2 output blocks and tables checked, 0 differ" in good.stdout, good.stdout

    moved = check(TABLE.format(compute="8.75") + BLOCK)
    assert moved.returncode == 1, moved.returncode
    assert "page.md:1:" in moved.stderr and "| A | 12 | 64 | 8.75 ms" in moved.stderr, moved.stderr

    compared = check(TABLE.format(compute="8.74").replace("<!-- not compared: wall -->\n", ""))
    assert compared.returncode == 1, "the wall column, which the command does not print, was not compared"

    wrong = check(TABLE.format(compute="8.74").replace("not compared: wall", "not compared: walls"))
    assert wrong.returncode != 0 and '"walls" is not a column of the table' in wrong.stderr, wrong.stderr

    only = check(TABLE.format(compute="8.75") + BLOCK, "--only", "echo")
    assert only.returncode == 0 and "1 output blocks" in only.stdout, (only.stdout, only.stderr)
    skipped = check(TABLE.format(compute="8.75") + BLOCK, "--except", "printf")
    assert skipped.returncode == 0 and "1 output blocks" in skipped.stdout, (skipped.stdout, skipped.stderr)
    wrong_line = check(BLOCK.replace("result: 3 held\n```", "result: 4 held\n```"))
    assert wrong_line.returncode == 1 and "result: 4 held" in wrong_line.stderr, wrong_line.stderr
    prose = check(PROSE.format(listed="6.5%, 15.5%", mean="mean error 6.5%"))
    assert prose.returncode == 0, prose.stderr
    moved_text = check(PROSE.format(listed="6.5%, 15.5%", mean="mean error 6.4%"))
    assert moved_text.returncode == 1 and "6.5% (not in the paragraph)" in moved_text.stderr, moved_text.stderr
    moved_output = check(PROSE.format(listed="6.4%, 15.5%", mean="mean error 6.4%"))
    assert moved_output.returncode == 1, moved_output.returncode
    assert "6.4% (not in the output)" in moved_output.stderr, moved_output.stderr
    indented = check(INDENTED.format(percent="40.4"))
    assert indented.returncode == 0 and "1 output blocks" in indented.stdout, (indented.stdout, indented.stderr)
    indented_moved = check(INDENTED.format(percent="40.5"))
    assert indented_moved.returncode == 1 and "| exposed communication | 5.427 | 40.4% |" in indented_moved.stderr, \
        indented_moved.stderr
    dollars = check(DOLLARS.format(printed="$0.004274"))
    assert dollars.returncode == 0, dollars.stderr
    dollars_moved = check(DOLLARS.format(printed="$0.004275"))
    assert dollars_moved.returncode == 1 and "0.004274 (not in the output)" in dollars_moved.stderr, \
        dollars_moved.stderr
    print("check_page_outputs: matches, moved figures, left-out columns, list items' tables, a report's \"N %\" "
          "and selections as documented")


if __name__ == "__main__":
    main()
