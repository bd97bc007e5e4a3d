import ast, pathlib, sys
for p in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    tree = ast.parse(p.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            n = node.end_lineno - node.lineno + 1
            if n > int(sys.argv[2]):
                print(f"{n:5d} {p}:{node.lineno} {node.name}")
    n = len(p.read_text().splitlines())
    if n > 900: print(f"  module {n} {p}")
