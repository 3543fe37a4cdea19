// Validates OSCAL documents with NIST's liboscal-java, the library oscal-cli is built on: the
// Metaschema constraints of OSCAL 1.1.2 (allowed values, cross references such as
// related-observations -> observation uuids, index keys, co-occurrences) on top of the JSON
// schemas. Prints every finding; exits 1 if any is an error (or worse), 2 on a load failure.
// Run with the jars installed by scripts/install-oscal-tools.sh:
//   java -cp '.tools/oscal/lib/*' test/oscal/OscalValidate.java file.json...
import gov.nist.secauto.metaschema.model.common.constraint.IConstraint;
import gov.nist.secauto.metaschema.model.common.validation.IValidationFinding;
import gov.nist.secauto.metaschema.model.common.validation.IValidationResult;
import gov.nist.secauto.oscal.lib.OscalBindingContext;
import java.nio.file.Path;

public class OscalValidate {
  public static void main(String[] args) throws Exception {
    OscalBindingContext context = OscalBindingContext.instance();
    int errors = 0;
    for (String file : args) {
      IValidationResult result;
      try {
        result = context.validateWithConstraints(Path.of(file));
      } catch (Exception e) {
        System.out.println("LOAD-FAILED " + file + ": " + e);
        System.exit(2);
        return;
      }
      int fileErrors = 0;
      for (IValidationFinding f : result.getFindings()) {
        boolean error = f.getSeverity().ordinal() >= IConstraint.Level.ERROR.ordinal();
        if (error) fileErrors++;
        System.out.println(f.getSeverity() + " " + file + ": " + f.getMessage());
      }
      System.out.println((fileErrors == 0 ? "VALID " : "INVALID ") + file + " (" + result.getFindings().size() + " finding(s), " + fileErrors + " error(s))");
      errors += fileErrors;
    }
    System.exit(errors == 0 ? 0 : 1);
  }
}
