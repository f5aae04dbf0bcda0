package io.argus.plugin.method;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MethodTargetsTest {

    @Test
    void parsesNamesAndWildcardsWithWhitespace() {
        MethodTargets t = MethodTargets.parse(" com.acme.Foo#bar ,com.acme.Baz # * ,\tcom.acme.Foo#qux, ");
        assertThat(t.errors()).isEmpty();
        List<MethodTargets.ClassTargets> classes = t.classes();
        assertThat(classes).extracting(MethodTargets.ClassTargets::className).containsExactly("com.acme.Foo", "com.acme.Baz");
        assertThat(classes.get(0).allMethods()).isFalse();
        assertThat(classes.get(0).methodNames()).containsExactly("bar", "qux");
        assertThat(classes.get(1).allMethods()).isTrue();
        assertThat(classes.get(1).methodNames()).isEmpty();
    }

    @Test
    void wildcardWinsOverNamesAndDuplicatesMerge() {
        MethodTargets t = MethodTargets.parse("a.B#x,a.B#*,a.B#x");
        assertThat(t.classes()).hasSize(1);
        assertThat(t.classes().get(0).allMethods()).isTrue();
    }

    @Test
    void nestedClassesAndDefaultPackage() {
        MethodTargets t = MethodTargets.parse("com.acme.Outer$Inner#run,Main#main,a.b.$Gen#_x1");
        assertThat(t.errors()).isEmpty();
        assertThat(t.classes()).extracting(MethodTargets.ClassTargets::className)
                .containsExactly("com.acme.Outer$Inner", "Main", "a.b.$Gen");
    }

    @Test
    void eachMalformedEntryIsNamedOnceAndSkipped() {
        MethodTargets t = MethodTargets.parse("nonsense,ok.A#b,x.Y#,#m,a.b#c#d,1x.Y#z,a..b.C#m,a.B.#m,a.B#m(),a.B#<init>,a.B#<clinit>,a b.C#d");
        assertThat(t.classes()).extracting(MethodTargets.ClassTargets::toString).containsExactly("ok.A#[b]");
        assertThat(t.errors()).hasSize(11);
        String[] bad = {"nonsense", "x.Y#", "#m", "a.b#c#d", "1x.Y#z", "a..b.C#m", "a.B.#m", "a.B#m()", "a.B#<init>",
                "a.B#<clinit>", "a b.C#d"};
        for (int i = 0; i < bad.length; i++) {
            assertThat(t.errors().get(i)).startsWith("ignoring malformed entry '" + bad[i] + "' in argus.trace.methods: ")
                    .endsWith("(" + MethodTargets.EXPECTED + ")");
        }
        assertThat(t.errors().get(0)).contains("no '#'");
        assertThat(t.errors().get(8)).contains("constructors");
    }

    @Test
    void emptyOrMissingMeansNothing() {
        assertThat(MethodTargets.parse(null).isEmpty()).isTrue();
        assertThat(MethodTargets.parse("").isEmpty()).isTrue();
        assertThat(MethodTargets.parse(" , ,").errors()).isEmpty();
    }
}
