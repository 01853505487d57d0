// asc2._C: the compiler and the simulator, in process.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void init_ir(py::module_ &m);
void init_sim(py::module_ &m);

PYBIND11_MODULE(_C, m) {
  m.doc() = "asc2 compiler and simulator bindings";
  init_ir(m);
  init_sim(m);
}
