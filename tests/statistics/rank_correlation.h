// Spearman's rank correlation, the calibration's measure of agreement with a real compiler.
#pragma once

#include <vector>

namespace crashtest::test {

// Average ranks (ties share their mean rank), then Pearson over the ranks; 0 when either side is constant.
double Spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace crashtest::test
