package io.argus.plugin.springwebflux;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WebFluxRoutesTest {

    @Test
    void theBasePathGoesInFrontOnceAndTheJoinedRouteIsReused() {
        String first = WebFluxRoutes.joined("/shop", "/api/items/{id}");
        assertThat(first).isEqualTo("/shop/api/items/{id}");
        // equal strings that are other instances, as each request's parsed path is: the cached route comes back
        assertThat(WebFluxRoutes.joined(new String("/shop"), new String("/api/items/{id}"))).isSameAs(first);
        assertThat(WebFluxRoutes.joined("/shop", "fn/prices/{item}")).isEqualTo("/shop/fn/prices/{item}");
        assertThat(WebFluxRoutes.joined("/other", "/api/items/{id}")).isEqualTo("/other/api/items/{id}");
    }
}
