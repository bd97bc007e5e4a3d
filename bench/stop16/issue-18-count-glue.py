"""Lines of glue: physical lines holding code; not blank, not only a comment, not a docstring, not a module-level import."""
import ast, io, sys, tokenize

def glue(path: str) -> int:
    src = open(path).read()
    tree = ast.parse(src)
    doc_lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                doc_lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            doc_lines.update(range(node.lineno, node.end_lineno + 1))
    code_lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        for line in range(tok.start[0], tok.end[0] + 1):
            code_lines.add(line)
    return len(code_lines - doc_lines)

for p in sys.argv[1:]:
    print(glue(p), p)
