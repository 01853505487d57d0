# `make package`: one .deb of the installed tree (packaging/CMakeLists.txt).
set(ASC2_PACKAGE_CONTACT "asc2 Workbench developers <asc2-workbench@localhost>"
    CACHE STRING "Maintainer of the .deb (Name <email>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME asc2-workbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${ASC2_PACKAGE_CONTACT})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Write, compile and simulate Ascend NPU kernels in Python")
set(CPACK_PACKAGE_DESCRIPTION
"asc2 is a Python tile language for Huawei Ascend NPU kernels with an MLIR
compiler and a simulator of the AI core; no NPU is needed.
The package holds asc2-workbench (a Qt app: edit a kernel, read the IR after
each pass, the UB plan, the inserted syncs and the emitted Ascend C, run it on
the simulator), asc2-python (python3 with the asc2 package), the arch models
and the samples.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Shared libraries (Qt, QScintilla, Graphviz, libpython, libMLIR) come from
# dpkg-shlibdeps; libLLVM comes with libmlir-19 (dpkg-shlibdeps may miss it:
# the RUNPATH leads it to llvm-19-dev's symlink). Listed here is what is run or
# imported: asc2-python runs /usr/bin/python3, asc2/_C is built for this
# Python version.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(ASC2_PYTHON_MM ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR})
math(EXPR ASC2_PYTHON_NEXT_MINOR "${Python_VERSION_MINOR} + 1")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "python3 (>= ${ASC2_PYTHON_MM}), python3 (<< ${Python_VERSION_MAJOR}.${ASC2_PYTHON_NEXT_MINOR}), python3-numpy")
# The Twin backend compiles kernels with the host C++ compiler; Dask sweeps
# and torch tensors are optional.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-distributed, python3-torch")

# Byte-compile the private asc2 package on install and clean it on removal
# (what dh_python3 adds for a private directory).
set(ASC2_DEB_PYTHONDIR ${CPACK_PACKAGING_INSTALL_PREFIX}/${ASC2_INSTALL_PKGLIBDIR}/python)
foreach(script postinst prerm)
  configure_file(debian/${script}.in ${CMAKE_CURRENT_BINARY_DIR}/debian/${script} @ONLY)
  list(APPEND CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_BINARY_DIR}/debian/${script})
endforeach()

include(CPack)
