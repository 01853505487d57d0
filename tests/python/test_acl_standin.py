"""The ACL runtime stand-in of the CPU-twin build (compiler/twin/include/acl/acl.h): the calls an exported
project's main.cpp makes, with the checks a real runtime makes on host-program bugs."""

import shutil
import subprocess

import pytest

from conftest import ROOT

PROGRAM = r"""
#include "acl/acl.h"
#include <cstdio>
#include <cstring>

#define EXPECT(cond) do { if (!(cond)) { std::printf("FAILED line %d: %s\n", __LINE__, #cond); return 1; } } while (0)

int main()
{
    void *dev = nullptr, *host = nullptr;
    EXPECT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_UNINITIALIZE);
    EXPECT(aclInit(nullptr) == ACL_SUCCESS);
    EXPECT(aclInit(nullptr) == ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);  // no device yet
    EXPECT(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = nullptr;
    EXPECT(aclrtCreateStream(&stream) == ACL_SUCCESS && stream != nullptr);
    EXPECT(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    EXPECT(reinterpret_cast<uintptr_t>(dev) % 512 == 0);
    EXPECT(aclrtMallocHost(&host, 100) == ACL_SUCCESS);
    std::memset(host, 7, 100);
    EXPECT(aclrtMemcpy(dev, 100, host, 100, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    EXPECT(aclrtMemcpy(dev, 100, host, 101, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);  // > destMax
    EXPECT(aclrtMemcpy(static_cast<char *>(dev) + 50, 60, host, 60, ACL_MEMCPY_HOST_TO_DEVICE)
           == ACL_ERROR_INVALID_PARAM);  // past the allocation's end
    EXPECT(aclrtMemcpy(host, 100, host, 100, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM);  // not device
    std::memset(host, 0, 100);
    EXPECT(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    EXPECT(aclrtMemcpy(host, 100, dev, 100, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    EXPECT(static_cast<unsigned char *>(host)[99] == 7);
    EXPECT(aclrtFreeHost(dev) == ACL_ERROR_INVALID_PARAM);  // device memory through the host call
    EXPECT(aclrtFree(dev) == ACL_SUCCESS);
    EXPECT(aclrtFree(dev) == ACL_ERROR_INVALID_PARAM);  // twice
    EXPECT(aclrtFreeHost(host) == ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream) == ACL_SUCCESS);
    EXPECT(aclrtResetDevice(1) == ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtResetDevice(0) == ACL_SUCCESS);
    EXPECT(aclFinalize() == ACL_SUCCESS);
    std::printf("ok\n");
    return 0;
}
"""


@pytest.mark.skipif(not shutil.which("g++"), reason="g++ is not installed")
def test_acl_standin(tmp_path):
    (tmp_path / "t.cpp").write_text(PROGRAM)
    build = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "-I", f"{ROOT}/compiler/twin/include",
                            "t.cpp", "-o", "t"], cwd=tmp_path, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run(["./t"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "ok\n", run.stdout + run.stderr
    assert "[asc2 twin ACL] aclrtMemcpy: count exceeds destMax" in run.stderr
