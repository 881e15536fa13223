"""The kernel's interface is written once, in ``kernels.c``'s ``struct Model``, and every other place that lays
it out is held to it here: the ctypes structure that hands it to the native kernel (``kernels.Model``), the arrays
``solve.model_arrays`` gives in the struct's pointer order, the WebAssembly driver's list of them
(``wasm.ARRAYS``, which ``core/solve.js`` follows and tests/js/payout.test.mjs checks name by name), and the
exported functions of the C file, the wasm module and the loader."""
from __future__ import annotations

import ctypes
import re

import numpy as np

from solver.engine import kernels, wasm
from solver.engine.solve import model_arrays
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.game.turn import gonuts_turn

C_TYPES = {"int64_t": ("int64", ctypes.c_int64), "double": ("float64", ctypes.c_double),
           "uint8_t": ("uint8", ctypes.c_uint8)}


def struct_fields() -> list[tuple[str, str, bool]]:
    """(name, C type, is a pointer) of each field of kernels.c's Model, in order."""
    text = kernels.SOURCE.read_text()
    body = re.search(r"typedef struct \{(.*?)\} Model;", text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    out = []
    for decl in filter(None, (d.strip() for d in body.split(";"))):
        ctype = re.match(r"(?:const\s+)?(\w+)", decl).group(1)
        for name in decl[decl.index(ctype) + len(ctype):].split(","):
            name = name.strip()
            out.append((name.lstrip("*").strip(), ctype, name.startswith("*")))
    return out


def test_the_ctypes_structure_is_the_c_struct():
    fields = struct_fields()
    assert [name for name, _, _ in fields] == [name for name, _ in kernels.Model._fields_]
    for (name, ctype, pointer), (_, kind) in zip(fields, kernels.Model._fields_):
        want = C_TYPES[ctype][1]
        assert kind == (ctypes.POINTER(want) if pointer else want), name


def test_the_arrays_follow_the_structs_pointers_in_order_and_type():
    pointers = [(name, C_TYPES[ctype][0]) for name, ctype, pointer in struct_fields() if pointer]
    assert list(wasm.ARRAYS) == pointers
    rules = Rules.from_options(reading="summary", players=2, target=12)
    arrays = model_arrays(gonuts_turn(rules, nuts_payout_table(rules)), rules.target)
    assert len(arrays) == len(pointers)
    for a, (name, kind) in zip(arrays, pointers):         # bool arrays go to C as uint8, as Kernel converts them
        assert np.asarray(a).dtype in (np.dtype(kind), np.dtype(bool)), name


def test_the_wasm32_layout_the_driver_writes_is_the_structs():
    """core/solve.js writes the struct for wasm32: its int64 fields, then 4-byte pointers."""
    fields = struct_fields()
    scalars = [f for f in fields if not f[2]]
    assert fields[:len(scalars)] == scalars and all(ctype == "int64_t" for _, ctype, _ in scalars)
    js = (kernels.SOURCE.parent.parent / "site" / "web" / "src" / "core" / "solve.js").read_text()
    assert f"alloc(8 * {len(scalars)} + 4 * {len(fields) - len(scalars)})" in js
    assert f"new BigInt64Array(kernel.memory.buffer, model, {len(scalars)})" in js
    assert f"new Uint32Array(kernel.memory.buffer, model + {8 * len(scalars)}, {len(fields) - len(scalars)})" in js


def test_every_exported_kernel_is_exported_by_the_wasm_module_and_declared_by_the_loader():
    text = kernels.SOURCE.read_text()
    exported = re.findall(r"^EXPORT int (\w+)\(", text, re.M)
    assert len(exported) == 6
    assert set(wasm.NATIVE_ONLY) <= set(exported)
    assert (set(exported) - set(wasm.NATIVE_ONLY)) | {"malloc", "free"} == set(wasm.EXPORTS)
    loader = (kernels.SOURCE.parent / "kernels.py").read_text()
    for name in exported:
        assert f'"{name}":' in loader, name
