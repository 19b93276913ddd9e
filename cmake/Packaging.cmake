# `cpack -G DEB` in the build directory: a Debian package of what
# `cmake --install` installs (every tool, the C++ API, the CMake package and
# the Python package), under the configured CMAKE_INSTALL_PREFIX. Configure
# with -DCMAKE_INSTALL_PREFIX=/usr for a package in /usr: the Python package
# then lands in lib/python3/dist-packages, where /usr/bin/python3 looks.
# Dependencies are listed, not computed: dpkg-shlibdeps takes libomp.so.5
# for LLVM 19's (libomp5-19), while the binaries' RUNPATH finds LLVM 22's,
# which only libomp-22-dev ships.
set(CPACK_PACKAGE_NAME tracec)
set(CPACK_PACKAGE_VENDOR tracec)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "MLIR-based compiler for traced functions: trace dialect, autodiff, CPU and GPU code")
set(CPACK_PACKAGE_CONTACT "tracec developers <tracec-dev@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What the tools, the JIT and the Python extension load (NEEDED), and what
# the Python package imports.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6 (>= 2.34), libstdc++6 (>= 11), libgcc-s1, libllvm22, libmlir-22, libomp-22-dev, libprotobuf32, python3, python3-numpy")
# AOT objects need a C compiler; the C++ API and the CMake package, LLVM's
# and MLIR's headers and CMake packages.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-22 | gcc, cmake, llvm-22-dev, libmlir-22-dev")
include(CPack)
