"""PyCM statistics that are a registry metric with an average, a parameter, a synonym key or
one element of a tuple. (Keys equal to a metric as-is are the spec's ``pycm`` field.)"""

from __future__ import annotations

from .registry import pycm_key

# synonyms PyCM reports under a second key
pycm_key("PR", "class", "prevalence")
pycm_key("Y", "class", "informedness")  # Youden's index
pycm_key("GI", "class", "informedness")  # Gini of the single-point AUC: 2 AUC - 1 = BM
pycm_key("OOC", "class", "g_measure")  # Otsuka-Ochiai = sqrt(PPV TPR)
pycm_key("Scott PI", "overall", "scott_pi")
pycm_key("Hamming Loss", "overall", "hamming_loss")

# parameters
pycm_key("F0.5", "class", "fbeta", beta=0.5)
pycm_key("F2", "class", "fbeta", beta=2.0)
pycm_key("Zero-one Loss", "overall", "zero_one_loss", normalize=False)

# tuples: (lower, upper) and (sum, mean)
pycm_key("Kappa 95% CI", "overall", "kappa_ci_lower", element=0)
pycm_key("Kappa 95% CI", "overall", "kappa_ci_upper", element=1)
pycm_key("95% CI", "overall", "accuracy_ci_lower", element=0)
pycm_key("95% CI", "overall", "accuracy_ci_upper", element=1)
pycm_key("Overall J", "overall", "jaccard_sum", element=0)
pycm_key("Overall J", "overall", "jaccard", "macro", element=1)

# averages of per-class metrics (PyCM's macro is the plain mean over all classes; its AUNP
# weights by P_i / N, which is confmat's support-weighted average)
pycm_key("AUNU", "overall", "class_auc", "macro")
pycm_key("AUNP", "overall", "class_auc", "weighted")
pycm_key("CSI", "overall", "icsi", "macro")
pycm_key("ACC Macro", "overall", "ovr_accuracy", "macro")
for _key, _metric in (("TPR", "recall"), ("TNR", "specificity"), ("FPR", "fpr"),
                      ("FNR", "fnr"), ("PPV", "precision"), ("NPV", "npv"), ("F1", "f1")):
    for _avg in ("micro", "macro"):
        pycm_key(f"{_key} {_avg.capitalize()}", "overall", _metric, _avg)

# keys where confmat deliberately differs from PyCM (the test pins confmat's value to an
# independent computation there; everywhere else the two agree)
pycm_key("Q", "class", "yule_q",
         differs="Where FP FN = 0 < TP TN PyCM's odds-ratio form divides by zero; the equal "
                 "form (TP TN - FP FN) / (TP TN + FP FN) gives 1.")
pycm_key("KL Divergence", "overall", "kl_divergence",
         differs="Where a class is absent from the truth (0 log 0 = 0) or never predicted "
                 "(+inf) PyCM returns None; confmat returns the mathematical value.")
pycm_key("Cross Entropy", "overall", "cross_entropy",
         differs="Where a class occurs but is never predicted PyCM drops the infinite term; "
                 "confmat returns +inf.")
pycm_key("P-Value", "overall", "p_value",
         differs="PyCM computes 1 - sum(...) in floats, losing tiny p-values and overflowing "
                 "for large N; confmat uses the incomplete beta function (agrees to 1e-9 "
                 "absolute where PyCM is finite).")
