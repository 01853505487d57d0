// The ACL runtime calls an exported asc2 kernel project's host program makes
// (main.cpp), implemented on the host for its CPU-twin build (-DASC2_TWIN=ON):
// "device" memory is host memory, a stream is a token and every launch
// (asc2_twin::Launch) has finished when it returns, so synchronising does
// nothing. Written by us from the documented signatures (the CANN Runtime API
// reference; the same declarations appear in hicann/asc-tools@cpudebug
// src/acl_stub/ascendc_acl_stub.cpp); only what main.cpp uses.
//
// The checks a real runtime makes that catch host-program bugs are kept:
// freeing what was not allocated, copying more than the destination holds,
// using the runtime before aclInit or a device before aclrtSetDevice.
#ifndef ASC2_TWIN_ACL_ACL_H
#define ASC2_TWIN_ACL_ACL_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

typedef int aclError;
typedef void *aclrtStream;

// Return codes (acl_base.h's values).
static const aclError ACL_SUCCESS = 0;
static const aclError ACL_ERROR_INVALID_PARAM = 100000;
static const aclError ACL_ERROR_UNINITIALIZE = 100001;
static const aclError ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const aclError ACL_ERROR_BAD_ALLOC = 200000;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
} aclrtMemMallocPolicy;

namespace asc2_twin {
namespace acl {

enum class Space { Host, Device };

struct Runtime {
    std::mutex mutex;
    bool initialised = false;
    int32_t device = -1;
    std::map<const void *, std::pair<size_t, Space>> allocations;
    int streams = 0;
};

inline Runtime &runtime()
{
    static Runtime r;
    return r;
}

inline aclError fail(aclError code, const char *call, const char *why)
{
    std::fprintf(stderr, "[asc2 twin ACL] %s: %s (error %d)\n", call, why, code);
    return code;
}

// Device memory is aligned as the device's is (512 bytes), so alignment bugs
// in a kernel show up on the host too.
inline aclError allocate(void **ptr, size_t size, Space space, const char *call)
{
    Runtime &r = runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialised)
        return fail(ACL_ERROR_UNINITIALIZE, call, "aclInit was not called");
    if (space == Space::Device && r.device < 0)
        return fail(ACL_ERROR_INVALID_PARAM, call, "no device set (aclrtSetDevice)");
    if (ptr == nullptr || size == 0)
        return fail(ACL_ERROR_INVALID_PARAM, call, "null pointer or zero size");
    const size_t rounded = (size + 511) / 512 * 512;
    void *p = std::aligned_alloc(512, rounded);
    if (p == nullptr)
        return fail(ACL_ERROR_BAD_ALLOC, call, "out of memory");
    std::memset(p, 0, rounded);
    r.allocations[p] = {size, space};
    *ptr = p;
    return ACL_SUCCESS;
}

inline aclError release(void *ptr, Space space, const char *call)
{
    Runtime &r = runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.allocations.find(ptr);
    if (it == r.allocations.end() || it->second.second != space)
        return fail(ACL_ERROR_INVALID_PARAM, call, "pointer was not allocated by the matching aclrtMalloc call");
    r.allocations.erase(it);
    std::free(ptr);
    return ACL_SUCCESS;
}

// The allocation holding [p, p + n), if any, and its space.
inline bool findRange(const void *p, size_t n, Space *space)
{
    Runtime &r = runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.allocations.upper_bound(p);
    if (it == r.allocations.begin())
        return false;
    --it;
    const char *base = static_cast<const char *>(it->first);
    const char *c = static_cast<const char *>(p);
    if (c < base || c + n > base + it->second.first)
        return false;
    *space = it->second.second;
    return true;
}

} // namespace acl
} // namespace asc2_twin

inline aclError aclInit(const char *configPath)
{
    (void)configPath;
    asc2_twin::acl::Runtime &r = asc2_twin::acl::runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.initialised)
        return asc2_twin::acl::fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit", "already initialised");
    r.initialised = true;
    return ACL_SUCCESS;
}

inline aclError aclFinalize()
{
    asc2_twin::acl::Runtime &r = asc2_twin::acl::runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialised)
        return asc2_twin::acl::fail(ACL_ERROR_UNINITIALIZE, "aclFinalize", "aclInit was not called");
    if (!r.allocations.empty())
        std::fprintf(stderr, "[asc2 twin ACL] aclFinalize: %zu allocation(s) not freed\n", r.allocations.size());
    r.initialised = false;
    return ACL_SUCCESS;
}

inline aclError aclrtSetDevice(int32_t deviceId)
{
    asc2_twin::acl::Runtime &r = asc2_twin::acl::runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialised)
        return asc2_twin::acl::fail(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice", "aclInit was not called");
    if (deviceId < 0)
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtSetDevice", "negative device id");
    r.device = deviceId;
    return ACL_SUCCESS;
}

inline aclError aclrtResetDevice(int32_t deviceId)
{
    asc2_twin::acl::Runtime &r = asc2_twin::acl::runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (deviceId != r.device)
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtResetDevice", "not the device that was set");
    r.device = -1;
    return ACL_SUCCESS;
}

inline aclError aclrtCreateStream(aclrtStream *stream)
{
    asc2_twin::acl::Runtime &r = asc2_twin::acl::runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (stream == nullptr || r.device < 0)
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream", "null stream or no device set");
    *stream = reinterpret_cast<aclrtStream>(static_cast<uintptr_t>(++r.streams));
    return ACL_SUCCESS;
}

inline aclError aclrtDestroyStream(aclrtStream stream)
{
    return stream == nullptr ? asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream", "null stream")
                             : ACL_SUCCESS;
}

// Launches on the twin run to completion before they return.
inline aclError aclrtSynchronizeStream(aclrtStream stream)
{
    return stream == nullptr ? asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream", "null stream")
                             : ACL_SUCCESS;
}

inline aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    (void)policy;
    return asc2_twin::acl::allocate(devPtr, size, asc2_twin::acl::Space::Device, "aclrtMalloc");
}

inline aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    return asc2_twin::acl::allocate(hostPtr, size, asc2_twin::acl::Space::Host, "aclrtMallocHost");
}

inline aclError aclrtFree(void *devPtr)
{
    return asc2_twin::acl::release(devPtr, asc2_twin::acl::Space::Device, "aclrtFree");
}

inline aclError aclrtFreeHost(void *hostPtr)
{
    return asc2_twin::acl::release(hostPtr, asc2_twin::acl::Space::Host, "aclrtFreeHost");
}

// Device-side ranges must lie in one aclrtMalloc allocation (host-side ones may
// be any host memory, as with the real runtime).
inline aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    using asc2_twin::acl::Space;
    if (dst == nullptr || src == nullptr)
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "null pointer");
    if (count > destMax)
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "count exceeds destMax");
    const bool dstDevice = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    const bool srcDevice = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    Space space;
    if (dstDevice && !(asc2_twin::acl::findRange(dst, count, &space) && space == Space::Device))
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "destination is not device memory of that size");
    if (srcDevice && !(asc2_twin::acl::findRange(src, count, &space) && space == Space::Device))
        return asc2_twin::acl::fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "source is not device memory of that size");
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

#endif // ASC2_TWIN_ACL_ACL_H
