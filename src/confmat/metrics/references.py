"""Bibliographic references shared by the metric families (one string per work)."""

PYCM = (
    "Haghighi, S. et al. (2018), PyCM: Multiclass confusion matrix library in Python, "
    "J. Open Source Softw. 3(25), 729 (its documentation lists each statistic's origin)."
)
POWERS = (
    "Powers, D. M. W. (2011), Evaluation: from precision, recall and F-measure to ROC, "
    "informedness, markedness and correlation, J. Mach. Learn. Technol. 2(1)."
)
FAWCETT = "Fawcett, T. (2006), An introduction to ROC analysis, Pattern Recognit. Lett. 27(8)."
SOKOLOVA = (
    "Sokolova, M., Lapalme, G. (2009), A systematic analysis of performance measures for "
    "classification tasks, Inf. Process. Manag. 45(4)."
)
SOKOLOVA_2006 = (
    "Sokolova, M., Japkowicz, N., Szpakowicz, S. (2006), Beyond accuracy, F-score and ROC: a "
    "family of discriminant measures for performance evaluation, AI 2006, LNCS 4304."
)
SCOTT = (
    "Scott, W. A. (1955), Reliability of content analysis: the case of nominal scale coding, "
    "Public Opin. Q. 19(3)."
)
GWET = (
    "Gwet, K. L. (2008), Computing inter-rater reliability and its variance in the presence of "
    "high agreement, Br. J. Math. Stat. Psychol. 61(1)."
)
BENNETT = (
    "Bennett, E. M., Alpert, R., Goldstein, A. C. (1954), Communications through limited-"
    "response questioning, Public Opin. Q. 18(3)."
)
BYRT = (
    "Byrt, T., Bishop, J., Carlin, J. B. (1993), Bias, prevalence and kappa, J. Clin. "
    "Epidemiol. 46(5)."
)
FLEISS_SE = (
    "Fleiss, J. L., Cohen, J., Everitt, B. S. (1969), Large sample standard errors of kappa "
    "and weighted kappa, Psychol. Bull. 72(5)."
)
KRIPPENDORFF = (
    "Krippendorff, K. (2004), Content Analysis: An Introduction to Its Methodology, 2nd ed., "
    "Sage."
)
BANGDIWALA = (
    "Bangdiwala, S. I. (1985), A graphical test for observer agreement, Proc. 45th Int. Stat. "
    "Inst. Meeting."
)
HUBERT = "Hubert, L., Arabie, P. (1985), Comparing partitions, J. Classif. 2(1)."
SHANNON = "Shannon, C. E. (1948), A mathematical theory of communication, Bell Syst. Tech. J. 27."
COVER = "Cover, T. M., Thomas, J. A. (2006), Elements of Information Theory, 2nd ed., Wiley."
KULLBACK = (
    "Kullback, S., Leibler, R. A. (1951), On information and sufficiency, Ann. Math. Stat. 22(1)."
)
WEI_CEN = (
    "Wei, J.-M. et al. (2010), A novel measure for evaluating classifiers, Expert Syst. Appl. "
    "37(5)."
)
DELGADO_MCEN = (
    "Delgado, R., Núñez-González, J. D. (2019), Enhancing confusion entropy (CEN) for binary "
    "and multiclass classification, PLoS ONE 14(1)."
)
SINDHWANI = (
    "Sindhwani, V., Bhattacharya, P., Rakshit, S. (2001), Information theoretic feature "
    "crediting in multiclass support vector machines, SIAM Int. Conf. Data Min."
)
KONONENKO = (
    "Kononenko, I., Bratko, I. (1991), Information-based evaluation criterion for classifier's "
    "performance, Mach. Learn. 6(1)."
)
PEARSON = (
    "Pearson, K. (1900), On the criterion that a given system of deviations from the probable "
    "... can be reasonably supposed to have arisen from random sampling, Philos. Mag. 50(302)."
)
CRAMER = "Cramér, H. (1946), Mathematical Methods of Statistics, Princeton University Press."
GOODMAN_KRUSKAL = (
    "Goodman, L. A., Kruskal, W. H. (1954), Measures of association for cross classifications, "
    "J. Am. Stat. Assoc. 49(268)."
)
YULE = (
    "Yule, G. U. (1912), On the methods of measuring association between two attributes, "
    "J. R. Stat. Soc. 75(6)."
)
GARCIA_IBA = (
    "García, V., Mollineda, R. A., Sánchez, J. S. (2009), Index of balanced accuracy: a "
    "performance measure for skewed class distributions, IbPRIA, LNCS 5524."
)
BATUWITA = (
    "Batuwita, R., Palade, V. (2009), A new performance measure for class imbalance learning: "
    "application to bioinformatics problems, ICMLA."
)
MARATEA = (
    "Maratea, A., Petrosino, A., Manzo, M. (2014), Adjusted F-measure and kernel scaling for "
    "imbalanced data learning, Inf. Sci. 257."
)
RANAWANA = (
    "Ranawana, R., Palade, V. (2006), Optimized precision: a new measure for classifier "
    "performance evaluation, IEEE Congress on Evolutionary Computation."
)
MOSLEY = (
    "Mosley, L. (2013), A balanced approach to the multi-class imbalance problem, PhD thesis, "
    "Iowa State University."
)
FERRI = (
    "Ferri, C., Hernández-Orallo, J., Modroiu, R. (2009), An experimental comparison of "
    "performance measures for classification, Pattern Recognit. Lett. 30(1)."
)
FOWLKES = (
    "Fowlkes, E. B., Mallows, C. L. (1983), A method for comparing two hierarchical "
    "clusterings, J. Am. Stat. Assoc. 78(383)."
)
VIJAYMEENA = (
    "Vijaymeena, M. K., Kavitha, K. (2016), A survey on similarity measures in text mining, "
    "Mach. Learn. Appl. Int. J. 3(1)."
)
BRAY_CURTIS = (
    "Bray, J. R., Curtis, J. T. (1957), An ordination of the upland forest communities of "
    "southern Wisconsin, Ecol. Monogr. 27(4)."
)
HAMMING = "Hamming, R. W. (1950), Error detecting and error correcting codes, Bell Syst. Tech. J. 29(2)."
KUHN = (
    "Kuhn, M. (2008), Building predictive models in R using the caret package, J. Stat. Softw. "
    "28(5)."
)
LOADER = (
    "Loader, C. (2000), Fast and accurate computation of binomial probabilities, technical "
    "report, Bell Labs."
)
AGRESTI = "Agresti, A. (2013), Categorical Data Analysis, 3rd ed., Wiley."
HANLEY = (
    "Hanley, J. A., McNeil, B. J. (1982), The meaning and use of the area under a receiver "
    "operating characteristic (ROC) curve, Radiology 143(1)."
)
LANDIS_KOCH = (
    "Landis, J. R., Koch, G. G. (1977), The measurement of observer agreement for categorical "
    "data, Biometrics 33(1)."
)
FLEISS_BOOK = "Fleiss, J. L. (1981), Statistical Methods for Rates and Proportions, 2nd ed., Wiley."
ALTMAN = "Altman, D. G. (1991), Practical Statistics for Medical Research, Chapman and Hall."
CICCHETTI = (
    "Cicchetti, D. V. (1994), Guidelines, criteria, and rules of thumb for evaluating normed and "
    "standardized assessment instruments in psychology, Psychol. Assess. 6(4)."
)
TUFFERY = "Tufféry, S. (2011), Data Mining and Statistics for Decision Making, Wiley."
SKLEARN = "Pedregosa et al. (2011), Scikit-learn: Machine Learning in Python, JMLR 12."
IMBLEARN = (
    "Lemaître, G., Nogueira, F., Aridas, C. K. (2017), Imbalanced-learn: a Python toolbox to "
    "tackle the curse of imbalanced datasets in machine learning, JMLR 18(17)."
)
CHICCO = (
    "Chicco, D., Jurman, G. (2020), The advantages of the Matthews correlation coefficient "
    "(MCC) over F1 score and accuracy in binary classification evaluation, BMC Genomics 21."
)
KNEUSEL = (
    "Kneusel, R. T. (2021), Practical Deep Learning: A Python-Based Introduction, No Starch "
    "Press, ch. 11."
)
YAO = (
    "Yao, S., Yang, S., Li, Y. (2022), Research on performance measure indicators of machine "
    "learning classification based on confusion matrix and corresponding Python practice."
)
MATTHEWS = (
    "Matthews, B. W. (1975), Comparison of the predicted and observed secondary structure of "
    "T4 phage lysozyme, Biochim. Biophys. Acta 405(2)."
)
RIJSBERGEN = "van Rijsbergen, C. J. (1979), Information Retrieval, 2nd ed., Butterworths."
JACCARD = "Jaccard, P. (1912), The distribution of the flora in the alpine zone, New Phytol. 11."
GLAS = (
    "Glas, A. S. et al. (2003), The diagnostic odds ratio: a single indicator of test "
    "performance, J. Clin. Epidemiol. 56(11)."
)
YOUDEN = "Youden, W. J. (1950), Index for rating diagnostic tests, Cancer 3(1)."
KUBAT = (
    "Kubat, M., Matwin, S. (1997), Addressing the curse of imbalanced training sets: one-sided "
    "selection, ICML."
)
