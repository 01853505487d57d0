"""The asc2 kernel language (types, markers, DSL functions)."""

from . import core
from .core import (ConstExpr, GlobalAddress, TensorLocation, dtype, ALL_DTYPES, from_name, builtin,
                   is_builtin, float32, float16, bfloat16, int64, int32, int16, int8, uint8, bool_,
                   block_idx, block_num, ceildiv, global_tensor, copy_in, copy_out, copy, range,
                   static_range, add, sub, mul, div, maximum, minimum, exp, log, sqrt, abs, relu,
                   negative)

# The not-yet-implemented DSL functions (asc2.reduce_sum, asc2.matmul, ...).
globals().update({name: getattr(core, name) for name in core._PLANNED})

__all__ = [name for name in dir(core) if not name.startswith("_") and name not in ("enum", "functools")]
