import ast, io, sys, tokenize, subprocess
def sloc(src):
    tree = ast.parse(src)
    doc = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            b = node.body
            if b and isinstance(b[0], ast.Expr) and isinstance(b[0].value, ast.Constant) and isinstance(b[0].value.value, str):
                doc.update(range(b[0].lineno, b[0].end_lineno + 1))
    code = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        for l in range(tok.start[0], tok.end[0] + 1):
            if l not in doc:
                code.add(l)
    return len(src.splitlines()), len(code)
rev, files = sys.argv[1], sys.argv[2:]
for f in files:
    if rev == "WT":
        try: src = open(f).read()
        except FileNotFoundError: print(f, "-"); continue
    else:
        r = subprocess.run(["git", "show", f"{rev}:{f}"], capture_output=True, text=True)
        if r.returncode: print(f, "-"); continue
        src = r.stdout
    print(f, *sloc(src))
