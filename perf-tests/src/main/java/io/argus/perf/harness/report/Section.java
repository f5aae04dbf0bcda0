package io.argus.perf.harness.report;

/** One section of a report: its heading and what stands under it. */
public interface Section<R> {

    void render(R results, Markdown md);
}
