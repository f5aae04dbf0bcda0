package io.argus.cluster.fetch;

import java.util.List;

/**
 * A Maven Central artifact to fetch with its runtime dependencies.
 *
 * @param exclusions {@code groupId:artifactId} of dependencies left out (e.g. {@code org.hyperic:sigar}, not on Central)
 */
public record Artifact(String groupId, String artifactId, String version, List<String> exclusions) {

    public Artifact {
        exclusions = List.copyOf(exclusions);
    }

    public Artifact(String groupId, String artifactId, String version) {
        this(groupId, artifactId, version, List.of());
    }

    /** The artifact's own jar, as the dependency plugin names it. */
    public String jar() {
        return artifactId + "-" + version + ".jar";
    }

    String dependencyXml() {
        StringBuilder xml = new StringBuilder()
                .append("    <dependency>\n")
                .append("      <groupId>").append(groupId).append("</groupId>\n")
                .append("      <artifactId>").append(artifactId).append("</artifactId>\n")
                .append("      <version>").append(version).append("</version>\n");
        if (!exclusions.isEmpty()) {
            xml.append("      <exclusions>\n");
            for (String e : exclusions) {
                int colon = e.indexOf(':');
                xml.append("        <exclusion><groupId>").append(e, 0, colon).append("</groupId><artifactId>")
                        .append(e.substring(colon + 1)).append("</artifactId></exclusion>\n");
            }
            xml.append("      </exclusions>\n");
        }
        return xml.append("    </dependency>\n").toString();
    }
}
