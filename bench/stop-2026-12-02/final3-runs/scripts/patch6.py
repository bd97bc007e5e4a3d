p='/tmp/final3/t6/sansio_responses/_responses/models.py'
s=open(p).read()
old='''    cls._SPEC = tuple(spec)  # pyright: ignore[reportPrivateUsage]
    cls._FIELDS = frozenset(name for name, *_ in spec)  # pyright: ignore[reportPrivateUsage]
    return depth_safe(cls)
'''
new='''    cls._SPEC = tuple(spec)  # pyright: ignore[reportPrivateUsage]
    cls._FIELDS = frozenset(name for name, *_ in spec)  # pyright: ignore[reportPrivateUsage]
    _plan(cls)
    return depth_safe(cls)


_NONE = type(None)
_CLASSES = {}


def _plan(cls):
    global _CLASSES
    if not _CLASSES:
        _CLASSES = {_conv_str: {str, _NONE}, _conv_int: {int, _NONE}, _conv_num: {int, float, _NONE}, _conv_bool: {bool, _NONE}, _conv_dict: {dict, _NONE}}
    groups = {}
    nested = []
    names = []
    descs = []
    for i, (name, conv, required, setter) in enumerate(cls._SPEC):
        names.append(name)
        descs.append(next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__))
        if conv is None:
            continue
        allowed = _CLASSES.get(conv)
        if allowed is not None and not required:
            groups.setdefault(id(conv), (allowed, []))[1].append(name)
        else:
            nested.append((i, name, conv, required))
    cls._PLAN = (tuple(names), tuple(descs), tuple((frozenset(a), tuple(n)) for a, n in groups.values()), tuple(nested))
'''
assert old in s
s=s.replace(old,new)
old='''        if d.__class__ is not dict:
            if not isinstance(d, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]'''
new='''        plan = cls.__dict__.get("_PLAN")
        if plan is not None and d.__class__ is dict:
            get = d.get
            names, descs, groups, nested = plan
            for allowed, gnames in groups:
                if not allowed.issuperset(map(type, map(get, gnames))):
                    break
            else:
                values = list(map(get, names))
                for i, name, conv, required in nested:
                    value = values[i]
                    if value is None:
                        if required:
                            raise SchemaError(_join(path, name), "string", value)
                    else:
                        values[i] = conv(value, path, name)
                self = object.__new__(cls)
                _set_raw(self, d)
                _deque(map(_SET, descs, _repeat(self), values), 0)
                return self
        if d.__class__ is not dict:
            if not isinstance(d, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]'''
assert old in s, "x"
s=s.replace(old,new)
s=s.replace("import attrs\n","import attrs\nfrom collections import deque as _deque\nfrom itertools import repeat as _repeat\nimport types as _types\n_SET = _types.MemberDescriptorType.__set__\n",1)
open(p,'w').write(s)
