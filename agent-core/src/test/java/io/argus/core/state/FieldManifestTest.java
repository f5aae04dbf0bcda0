package io.argus.core.state;

import io.argus.core.plugin.FieldDeclaration;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FieldManifestTest {

    @Test
    void readsFieldsAfterThePluginLineAndSkipsWhatItCannotRead() {
        List<FieldDeclaration> fields = FieldManifest.parse("test", List.of(
                "# a comment",
                "plugin web",
                "com.example.Request web.span",
                "com.example.Request web.start long   # trailing comment",
                "com.example.Request",
                "com.example.Request web.x double",
                ""), name -> true);
        assertThat(fields).containsExactly(new FieldDeclaration("com.example.Request", "web.span", false),
                new FieldDeclaration("com.example.Request", "web.start", true));
    }

    @Test
    void aSwitchedOffPluginDeclaresNothingAndFieldsBeforeThePluginLineAreRefused() {
        assertThat(FieldManifest.parse("test", List.of("plugin web", "com.example.Request web.span"),
                name -> !name.equals("web"))).isEmpty();
        assertThat(FieldManifest.parse("test", List.of("com.example.Request web.span"), name -> true)).isEmpty();
    }

    @Test
    void aJoinedFileHoldsOneSectionPerPlugin() {
        List<FieldDeclaration> fields = FieldManifest.parse("joined", List.of(
                "plugin web", "com.example.Request web.span",
                "plugin off", "com.example.Other off.span",
                "plugin db", "com.example.Statement db.sql"), name -> !name.equals("off"));
        assertThat(fields).containsExactly(new FieldDeclaration("com.example.Request", "web.span", false),
                new FieldDeclaration("com.example.Statement", "db.sql", false));
    }
}
