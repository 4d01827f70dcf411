// Matrix types shared by the core. Everything the lesson shows is row-major float32,
// because that is the layout JavaScript's Float32Array sees and the layout the kernels
// stream through; double is used only for references and for the SVD.
#pragma once

#include <Eigen/Dense>

namespace mha {

using MatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace mha
