"""torch tensors as kernel arguments: the numpy view of a tensor's own memory that a launch runs on.

Every backend takes numpy buffers (the simulator and the CPU twin run on them in place, the NPU backend writes
and reads them back as project files), so a tensor is passed as ``tensor.detach().numpy()``: its memory, not a
copy. A contiguous tensor is written in place; a strided one (a transpose, a slice) is copied to a contiguous
buffer and the results are written back through the view, as for a strided numpy array. A kernel is not
differentiable: it records no grad_fn, and a tensor it writes is marked modified as an in-place op on
``tensor.detach()`` would mark it (``record_write``). bfloat16, which numpy lacks, is viewed as its int16 bit
patterns, as ``asc2.reinterpret`` passes numpy bits.
"""

import sys


def is_tensor(value):
    """Whether ``value`` is a torch.Tensor (torch is not imported to ask: whoever holds a tensor has)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def bits_dtype(tensor):
    """The numpy dtype that holds ``tensor``'s elements on the host: its own, int16 for bfloat16; None for a
    dtype numpy has no counterpart of (the quantized ones)."""
    import torch

    try:
        return _host_view(torch.empty(0, dtype=tensor.dtype), torch).dtype
    except TypeError:
        return None


def host_array(tensor, label):
    """A numpy view of ``tensor``'s memory; ``label`` (``"kernel: argument 'x'"``) names it in errors.

    Read-only when two indices may reach one element (``expand``'s zero strides, ``as_strided``): the launch then
    copies it for reading and refuses to write it, where a write-back would keep one of several results."""
    import torch

    t = tensor.detach()
    if t.device.type != "cpu":
        raise ValueError(f"{label} is a torch tensor on device '{t.device}'; kernels read and write host memory "
                         f"(the NPU backend copies it to the device itself): pass a CPU tensor (.cpu()) and copy "
                         "the results back")
    if t.layout != torch.strided:
        raise ValueError(f"{label} is a {t.layout} torch tensor, not a strided (dense) one; pass .to_dense() of "
                         "it")
    array = _host_view(t, torch)
    if elements_overlap(t.shape, t.stride()):
        array.flags.writeable = False
    return array


def _host_view(t, torch):
    return (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy()


def elements_overlap(shape, strides):
    """Whether two indices of a strided layout may reach one element (in elements; conservative: a layout this
    cannot prove disjoint counts as overlapping)."""
    if 0 in shape:
        return False
    reach = 1
    for stride, size in sorted((abs(st), n) for n, st in zip(shape, strides) if n > 1):
        if stride < reach:
            return True
        reach = stride * size
    return False


def unwritable_message(tensor, label):
    """The error for a kernel that writes ``tensor``, whose elements overlap (see ``host_array``)."""
    return (f"{label} is a torch tensor whose elements share memory (strides {tuple(tensor.stride())}, made by "
            "expand or as_strided), but the kernel writes it; pass a tensor that owns its elements (.clone() of it)")


def record_write(tensor):
    """Tell autograd that the kernel writes ``tensor`` in place, as an in-place op on ``tensor.detach()`` does:
    a backward pass that needs its old values then fails ("modified by an inplace operation") instead of
    computing wrong gradients. Writes through numpy are invisible to torch; copying a tensor onto itself bumps
    its version counter and moves no data."""
    t = tensor.detach()
    t.copy_(t)
