package io.argus.fleet.druid;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.cli.MainProcess;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

/** DruidMain's flags: the usage names each, and a bad one is one clear error with exit status 2. */
class DruidMainTest {

    @Test
    void theUsageNamesEveryOption() {
        assertThat(DruidMain.commandLine(new HashMap<>()).optionsMissingFromUsage()).isEmpty();
    }

    @Test
    void badFlagsExitWithTwoAndOneErrorNamingThem() throws Exception {
        assertThat(MainProcess.run(DruidMain.class, "--work", "w", "--kafak", "127.0.0.1:9092"))
                .isEqualTo(MainProcess.usageError("DruidMain", "unknown option '--kafak'"));
        assertThat(MainProcess.run(DruidMain.class, "--work", "w", "--retention-spans", "7d"))
                .isEqualTo(MainProcess.usageError("DruidMain", "invalid value for --retention-spans: '7d' (an"
                + " ISO-8601 period such as P7D or PT12H)"));
    }
}
