"""The asc2 frontend: Python AST -> asctile MLIR text."""

from .source import KernelSource
from .visitor import CodeGenerator, ParamSpec, generate

__all__ = ["KernelSource", "CodeGenerator", "ParamSpec", "generate"]
