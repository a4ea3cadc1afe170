# Regenerates testdata/scenarios: run from internal/patch/testdata.
import os, shutil
root = "scenarios"
shutil.rmtree(root, ignore_errors=True)
def scen(name, inp, patch, exp=None, err=None):
    d = os.path.join(root, name)
    for sub, tree in (("input", inp), ("expected", exp)):
        if tree is None: continue
        os.makedirs(os.path.join(d, sub), exist_ok=True)
        for p, c in tree.items():
            f = os.path.join(d, sub, p)
            os.makedirs(os.path.dirname(f), exist_ok=True)
            open(f, "wb").write(c.encode() if isinstance(c, str) else c)
        if not tree:
            open(os.path.join(d, sub, ".keep"), "w").close()
    open(os.path.join(d, "patch.txt"), "wb").write(patch.encode())
    if err: open(os.path.join(d, "error.txt"), "w").write(err + "\n")

def P(*body): return "*** Begin Patch\n" + "".join(b + "\n" for b in body) + "*** End Patch\n"

base = {"a.txt": "one\ntwo\nthree\n"}
scen("add_file", {}, P("*** Add File: dir/sub/new.txt", "+hello", "+world"), {"dir/sub/new.txt": "hello\nworld\n"})
scen("add_empty_file", {"x": "x\n"}, P("*** Add File: empty.txt"), {"x": "x\n", "empty.txt": ""})
scen("delete_file", {"a.txt": "a\n", "b.txt": "b\n"}, P("*** Delete File: a.txt"), {"b.txt": "b\n"})
scen("update_first_chunk_without_at", base, P("*** Update File: a.txt", " one", "-two", "+TWO", " three"), {"a.txt": "one\nTWO\nthree\n"})
scen("update_bare_at", base, P("*** Update File: a.txt", "@@", "-two", "+2"), {"a.txt": "one\n2\nthree\n"})
py = "class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 1\n"
scen("update_context_header", {"m.py": py}, P("*** Update File: m.py", "@@ class B:", "     def run(self):", "-        return 1", "+        return 2"),
     {"m.py": py.replace("class B:\n    def run(self):\n        return 1", "class B:\n    def run(self):\n        return 2")})
long = "".join("line %d\n" % i for i in range(1, 41))
exp = long.replace("line 5\n", "line five\n").replace("line 20\n", "line 20\nline 20.5\n").replace("line 38\n", "")
scen("update_multiple_chunks", {"f.txt": long}, P("*** Update File: f.txt", "@@", " line 4", "-line 5", "+line five", " line 6",
     "@@ line 19", " line 20", "+line 20.5", "@@", " line 37", "-line 38", " line 39"), {"f.txt": exp})
scen("update_and_move", {"src/old.txt": "a\nb\n", "keep": "k\n"}, P("*** Update File: src/old.txt", "*** Move to: dst/deep/new.txt", "@@", " a", "-b", "+B"), {"dst/deep/new.txt": "a\nB\n", "keep": "k\n"})
scen("move_only", {"old.txt": "same\n"}, P("*** Update File: old.txt", "*** Move to: new.txt"), {"new.txt": "same\n"})
dup = "x\nend\nx\nend\n"
scen("end_of_file_marker", {"f": dup}, P("*** Update File: f", "@@", " x", "-end", "+END", "*** End of File"), {"f": "x\nend\nx\nEND\n"})
scen("heredoc_and_whitespace", base, "\n  \napply_patch <<'EOF'\n" + P("*** Update File: a.txt", "@@", "-one", "+1") + "EOF\n\n", {"a.txt": "1\ntwo\nthree\n"})
scen("heredoc_plain", base, "<<EOF\n" + P("*** Delete File: a.txt") + "EOF", {})
scen("crlf_patch_text", base, P("*** Update File: a.txt", "@@", "-three", "+3").replace("\n", "\r\n"), {"a.txt": "one\ntwo\n3\n"})
scen("crlf_file_kept", {"w.txt": "one\r\ntwo\r\nthree\r\n"}, P("*** Update File: w.txt", "@@", " one", "-two", "+TWO", "+2.5", " three"), {"w.txt": "one\r\nTWO\r\n2.5\r\nthree\r\n"})
scen("no_final_newline_kept", {"n.txt": "one\ntwo"}, P("*** Update File: n.txt", "@@", " one", "-two", "+TWO", "*** End of File"), {"n.txt": "one\nTWO"})
scen("final_newline_kept", {"n.txt": "one\ntwo\n"}, P("*** Update File: n.txt", "@@", "-one", "+ONE"), {"n.txt": "ONE\ntwo\n"})
scen("fuzzy_trailing_whitespace", {"t": "a  \nb\t\nc\n"}, P("*** Update File: t", "@@", " a", "-b", "+B", " c"), {"t": "a  \nB\nc\n"})
scen("fuzzy_surrounding_whitespace", {"t": "    if x:\n        y()\n"}, P("*** Update File: t", "@@", " if x:", "-y()", "+        z()"), {"t": "    if x:\n        z()\n"})
scen("fuzzy_unicode_punctuation", {"u": "say \u201chi\u201d \u2014 ok\nnext\n"}, P("*** Update File: u", "@@", "-say \"hi\" - ok", "+say hello", " next"), {"u": "say hello\nnext\n"})
scen("exact_preferred_over_fuzzy", {"t": "a \nx\na\nx\n"}, P("*** Update File: t", "@@", " a", "-x", "+X"), {"t": "a \nx\na\nX\n"})
scen("many_operations", {"keep.txt": "k\n", "del.txt": "d\n", "up.txt": "u1\nu2\n"},
     P("*** Add File: added.txt", "+new", "*** Delete File: del.txt", "*** Update File: up.txt", "@@", " u1", "-u2", "+U2"),
     {"keep.txt": "k\n", "added.txt": "new\n", "up.txt": "u1\nU2\n"})
scen("pure_insert_at_end", {"f": "a\nb\n"}, P("*** Update File: f", "@@", "+c", "+d"), {"f": "a\nb\nc\nd\n"})
scen("insert_after_context", {"f": "a\nb\nc\n"}, P("*** Update File: f", "@@ a", "+a2"), {"f": "a\na2\nb\nc\n"})
scen("blank_context_line", {"f": "a\n\nb\n"}, P("*** Update File: f", "@@", " a", "", "-b", "+B"), {"f": "a\n\nB\n"})
scen("blank_lines_between_chunks", {"f": "a\nb\nc\nd\n"}, P("*** Update File: f", "@@", "-a", "+A", "", "@@", "-d", "+D"), {"f": "A\nb\nc\nD\n"})
scen("unified_range_header", {"f": "a\nb\nc\n"}, P("*** Update File: f", "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"), {"f": "a\nB\nc\n"})
scen("delete_then_add_same_file", {"f": "old\n"}, P("*** Delete File: f", "*** Add File: f", "+new"), {"f": "new\n"})
scen("two_updates_same_file", {"f": "a\nb\n"}, P("*** Update File: f", "@@", "-a", "+A", "*** Update File: f", "@@", "-b", "+B"), {"f": "A\nB\n"})
scen("delete_all_lines", {"f": "a\nb\n"}, P("*** Update File: f", "@@", "-a", "-b"), {"f": ""})
# Like Codex (its scenarios 010 and 011): Add File over a file that exists
# replaces it, and Move to onto a file that exists replaces that file.
scen("add_existing_file_overwrites", base, P("*** Add File: a.txt", "+x"), {"a.txt": "x\n"})
scen("move_onto_existing_overwrites", {"a": "a\n", "b": "b\n", "keep": "k\n"}, P("*** Update File: a", "*** Move to: b", "@@", "-a", "+A"), {"b": "A\n", "keep": "k\n"})
# errors
scen("err_missing_begin", base, "*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n", None, "patch_parse_error")
scen("err_missing_end", base, "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n", None, "patch_parse_error")
scen("err_bad_header", base, P("*** Frobnicate File: a.txt"), None, "patch_parse_error")
scen("err_no_operations", base, P(), None, "patch_parse_error")
scen("err_empty_update", base, P("*** Update File: a.txt"), None, "patch_parse_error")
scen("err_bad_chunk_line", base, P("*** Update File: a.txt", "garbage"), None, "patch_parse_error")
scen("err_chunk_without_at", base, P("*** Update File: a.txt", "@@", "-one", "+1", "garbage"), None, "patch_parse_error")
scen("err_empty_chunk", base, P("*** Update File: a.txt", "@@", "*** End of File"), None, "patch_parse_error")
scen("err_missing_path", base, P("*** Delete File: "), None, "patch_parse_error")
scen("err_context_not_found", base, P("*** Update File: a.txt", "@@ nowhere", "-two", "+2"), None, "patch_context_not_found")
scen("err_lines_not_found", base, P("*** Update File: a.txt", "@@", "-four", "+4"), None, "patch_context_not_found")
scen("err_lines_before_previous_chunk", base, P("*** Update File: a.txt", "@@", "-three", "+3", "@@", "-one", "+1"), None, "patch_context_not_found")
scen("err_eof_not_at_end", {"f": "x\nend\ntail\n"}, P("*** Update File: f", "@@", " x", "-end", "+END", "*** End of File"), None, "patch_context_not_found")
scen("err_update_missing_file", base, P("*** Update File: nope.txt", "@@", "-a", "+b"), None, "not_found")
scen("err_delete_missing_file", base, P("*** Delete File: nope.txt"), None, "not_found")
scen("err_update_folder", {"d/x": "x\n"}, P("*** Update File: d", "@@", "-x", "+y"), None, "is_directory")
scen("err_update_binary", {"bin": b"\x00\x01\x02\nx\n"}, P("*** Update File: bin", "@@", "-x", "+y"), None, "binary_file")
scen("err_outside_workspace", base, P("*** Add File: ../escape.txt", "+x"), None, "outside_workspace")
scen("err_absolute_outside", base, P("*** Add File: /tmp/gatehouse-escape.txt", "+x"), None, "outside_workspace")
scen("err_protected_path", base, P("*** Add File: .git/hooks/pre-commit", "+#!/bin/sh"), None, "protected_path")
scen("err_third_operation_fails", {"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"},
     P("*** Update File: a.txt", "@@", "-a", "+A", "*** Delete File: b.txt", "*** Update File: c.txt", "@@", "-zzz", "+Z"), None, "patch_context_not_found")
# All or nothing, unlike Codex: a replacing add is undone when a later operation fails.
scen("err_overwrite_then_fail", base, P("*** Add File: a.txt", "+x", "*** Update File: a.txt", "@@", "-zzz", "+Z"), None, "patch_context_not_found")
scen("err_move_outside", base, P("*** Update File: a.txt", "*** Move to: ../out.txt", "@@", "-one", "+1"), None, "outside_workspace")
