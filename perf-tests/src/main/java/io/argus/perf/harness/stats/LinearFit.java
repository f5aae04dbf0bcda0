package io.argus.perf.harness.stats;

/** Least-squares line y = intercept + slope x, with R² (1 - SSres / SStot). Public fields: it is written to JSON. */
public final class LinearFit {
    public double slope;
    public double intercept;
    public double r2;
    public int n;

    public LinearFit() {
    }

    public double at(double x) {
        return intercept + slope * x;
    }

    public static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("need two or more (x, y) pairs");
        }
        double mx = Stats.meanOf(x);
        double my = Stats.meanOf(y);
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
        }
        if (sxx == 0) {
            throw new IllegalArgumentException("all x are equal");
        }
        LinearFit f = new LinearFit();
        f.n = x.length;
        f.slope = sxy / sxx;
        f.intercept = my - f.slope * mx;
        double ssRes = 0;
        for (int i = 0; i < x.length; i++) {
            double r = y[i] - f.at(x[i]);
            ssRes += r * r;
        }
        f.r2 = syy == 0 ? 1 : 1 - ssRes / syy;
        return f;
    }
}
