package io.argus.core.state;

import io.argus.core.plugin.FieldDeclaration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Fields declared from the plugins' index first, then by the plugins themselves: the slots stay, nothing doubles. */
class FieldRegistryTest {

    private static final FieldDeclaration SPAN = new FieldDeclaration("org.example.Request", "registry-test.span", false);
    private static final FieldDeclaration START = new FieldDeclaration("org.example.Request", "registry-test.start", true);
    private static final FieldDeclaration OTHER = new FieldDeclaration("org.example.Exchange", "registry-test.span", false);

    @Test
    void declaringTheSameFieldsAgainAddsNothingAndANewOneIsReported() {
        FieldRegistry registry = new FieldRegistry(new AtomicLong());
        assertThat(registry.declare(List.of(SPAN, START))).containsExactly(SPAN, START);
        int[] objectSlots = registry.owners().get("org.example.Request").objectSlots();
        int[] longSlots = registry.owners().get("org.example.Request").longSlots();

        assertThat(registry.declare(List.of(SPAN, START))).as("the plugins declare what the index did").isEmpty();
        assertThat(registry.owners().get("org.example.Request").objectSlots()).isEqualTo(objectSlots);
        assertThat(registry.owners().get("org.example.Request").longSlots()).isEqualTo(longSlots);

        assertThat(registry.declare(List.of(SPAN, OTHER))).as("an owner the index missed").containsExactly(OTHER);
        assertThat(registry.owners().get("org.example.Exchange").objectSlots())
                .as("the same field name, the same slot").isEqualTo(objectSlots);
    }
}
