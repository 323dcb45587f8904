"""Evaluate a classifier on scikit-learn's embedded breast-cancer data with confmat."""

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import confmat


def main() -> None:
    data = load_breast_cancer()
    names = [str(n) for n in data.target_names]
    y = [names[i] for i in data.target]
    X_train, X_test, y_train, y_test = train_test_split(
        data.data, y, test_size=0.3, random_state=0, stratify=y
    )
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    cm = confmat.ConfusionMatrix.from_estimator(model, X_test, y_test)
    print("Confusion matrix (rows = true class, columns = predicted class):")
    print(cm)
    print()
    print(confmat.classification_report(y_test, model.predict(X_test), digits=4))
    for name in ("accuracy", "balanced_accuracy", "mcc", "kappa", "gmean"):
        print(f"{name:>18}: {cm.metric(name):.4f}")
    for name in ("recall", "specificity", "precision", "npv", "informedness", "markedness"):
        print(f"{name:>18}: {cm.metric(name, pos_label='malignant'):.4f}  (malignant)")


if __name__ == "__main__":
    main()
