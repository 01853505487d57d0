#!/usr/bin/env bash
# link-check.sh DIR...: does the emitted Ascend C *link* against Huawei's headers, not only compile?
#
# ../shared/tools/ascendc-check/check.sh runs g++ -fsyntax-only: a call to an API that the headers
# declare for every arch but define only for some (Subs/Divs, ShiftLeft(tensor, tensor) on A2/A3:
# declared in include/basic_api, bodies in impl/basic_api/dav_3510 only) passes it and fails to
# link on the device. This compiles each ascendc.cpp under DIR (ASC2_DUMP_PATH output) to an
# object, in the same CPU-debug mode and per core side, and lists the AscendC:: function templates
# it references without a definition. Non-template symbols (the CPU-debug runtime's checks,
# AIC_TYPE/AIV_TYPE) are provided by that runtime's library and are not listed.
#
#   ASC_DEVKIT=<asc-devkit tree> ASC_TOOLS=<asc-tools tree> tests/ascendc/link-check.sh dump/
#
# Exit status 0 when every kernel side links. The header trees are third-party (fetch them into a
# folder outside this repository; ../shared/tools/ascendc-check/README).
set -u
: "${ASC_DEVKIT:?set ASC_DEVKIT to a checkout of mirror-cann/asc-devkit}"
: "${ASC_TOOLS:?set ASC_TOOLS to a checkout of hicann/asc-tools}"
here=$(cd "$(dirname "$0")" && pwd)
stubs=${ASC_CHECK_STUBS:-$here/../../../shared/tools/ascendc-check/stubs}
D=$ASC_DEVKIT
gen=$(mktemp -d); trap 'rm -rf "$gen"' EXIT
mkdir -p "$gen/kernel_tiling"
python3 "$D/impl/adv_api/cmake/scripts/gen_kernel_tiling_data_def.py" "$D/include/adv_api" \
  "$gen/kernel_tiling/kernel_tiling.h" >/dev/null 2>&1 || { echo "could not generate kernel_tiling.h"; exit 2; }
INC=(-I"$stubs" -I"$gen" -I"$ASC_TOOLS/cpudebug/include" -I"$D" -I"$D/include" -I"$D/include/basic_api"
     -I"$D/include/utils" -I"$D/include/adv_api" -I"$D/impl" -I"$D/impl/basic_api" -I"$D/impl/utils"
     -I"$D/include/interface")
ok=0; bad=0
while IFS= read -r f; do
  case $(head -1 "$f") in
    *c310*) arch=3510; pre=C310; defs=(-D__NPU_ARCH__=3510 -D__DAV_C310__ -D__CCE_AICORE__=310);;
    *) arch=2201; pre=C220; defs=(-D__NPU_ARCH__=2201 -D__DAV_C220__ -D__CCE_AICORE__=220);;
  esac
  case $(grep -o 'KERNEL_TYPE_[A-Z_0-9]*' "$f" | head -1) in
    *AIV_ONLY) sides=(VEC);; *AIC_ONLY) sides=(CUBE);; *) sides=(CUBE VEC);; esac
  for side in "${sides[@]}"; do
    obj="$gen/kernel.o" flags=(-std=c++17 -w -O0 "${INC[@]}" -DASCENDC_CPU_DEBUG=1 "${defs[@]}" -D__DAV_${pre}_${side}__)
    # kernel_operator.h precompiled once per arch and side (found before the real header).
    pch="$gen/pch-$arch-$side"
    if [ ! -d "$pch" ]; then
      mkdir -p "$pch"
      g++ -x c++-header "${flags[@]}" "$D/include/kernel_operator.h" -o "$pch/kernel_operator.h.gch" 2>/dev/null ||
        rm -f "$pch/kernel_operator.h.gch"
    fi
    if ! g++ -x c++ -c -I"$pch" "${flags[@]}" "$f" -o "$obj" 2>/dev/null; then
      bad=$((bad+1)); echo "COMPILE-ERROR $arch $side $f (check.sh says why)"; continue
    fi
    missing=$(nm -C -u "$obj" | sed 's/^ *U //' | grep 'AscendC::' | grep '<' | sed -E 's/\(.*//' | sort -u)
    if [ -z "$missing" ]; then ok=$((ok+1)); echo "LINKS     $arch $side $f"
    else bad=$((bad+1)); echo "UNDEFINED $arch $side $f"; printf '%s\n' "$missing" | sed 's/^/          /'
    fi
  done
done < <(find "$@" -name ascendc.cpp | sort)
echo "link-check: $ok link, $bad fail"
[ $bad -eq 0 ]
