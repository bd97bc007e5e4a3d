"""Load two trees of sansio_responses in one process: NEW = the installed editable package
(/work/wt-review, or the tree named by $NEW_TREE), OLD = /work/wt-before (or $OLD_TREE) as
package `srb`. Strings from OLD are normalised with norm() (srb. -> sansio_responses.)."""
import importlib.util, os, sys

OLD_TREE = os.environ.get("OLD_TREE", "/work/wt-before")
NEW_TREE = os.environ.get("NEW_TREE", "/work/wt-review")


def _load(name, tree):
    pkg = os.path.join(tree, "sansio_responses")
    spec = importlib.util.spec_from_file_location(name, os.path.join(pkg, "__init__.py"),
                                                  submodule_search_locations=[pkg])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


if "sansio_responses" in sys.modules:
    N = sys.modules["sansio_responses"]
else:
    N = _load("sansio_responses", NEW_TREE)
assert os.path.realpath(N.__file__).startswith(os.path.realpath(NEW_TREE)), (N.__file__, NEW_TREE)
B = _load("srb", OLD_TREE)


def sub(mod, name):
    """Submodule *name* (e.g. '_sse') of the package *mod*."""
    return importlib.import_module(mod.__name__ + "." + name)


def norm(s):
    return s.replace("srb.", "sansio_responses.").replace("'srb'", "'sansio_responses'")
