import numpy as np

import confmat


def test_paper_binary_matrix_by_hand():
    # Yao et al. (2022): [[61, 2], [8, 58]]; accuracy = (61 + 58) / 129
    cm = confmat.ConfusionMatrix([[61, 2], [8, 58]])
    assert cm.metric("accuracy") == (61 + 58) / 129
    np.testing.assert_allclose(cm.metric("recall"), [61 / 63, 58 / 66])
