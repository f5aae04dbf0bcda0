package io.argus.core.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RouteNormalizerTest {

    private final RouteNormalizer routes = new RouteNormalizer(true);

    @Test
    void idLikeSegmentsBecomeIdPlaceholders() {
        assertThat(routes.route("/api/orders/42")).isEqualTo("/api/orders/{id}");
        assertThat(routes.route("/api/orders/42/items/7")).isEqualTo("/api/orders/{id}/items/{id}");
        assertThat(routes.route("/users/3f2504e0-4f89-11d3-9a0c-0305e82c3301/profile"))
                .isEqualTo("/users/{id}/profile");
        assertThat(routes.route("/blobs/0123456789abcdef0123")).isEqualTo("/blobs/{id}");
        assertThat(routes.route("/42")).isEqualTo("/{id}");
        assertThat(routes.route("/a/42/")).isEqualTo("/a/{id}/");
    }

    @Test
    void wordsShortHexAndMixedSegmentsStay() {
        String[] kept = {"/", "", "/hello/basic", "/api/v2/orders", "/cafe", "/beef/deadbeef", "/item-42", "/a//b",
                "/x1y2", "/3f2504e0-4f89-11d3-9a0c"};
        for (String path : kept) {
            assertThat(routes.route(path)).as(path).isSameAs(path);
        }
        assertThat(routes.route(null)).isNull();
    }

    @Test
    void switchedOffItKeepsThePath() {
        RouteNormalizer off = new RouteNormalizer(false);
        String path = "/api/orders/42";
        assertThat(off.route(path)).isSameAs(path);
    }
}
