// NIST SP 800-218, Secure Software Development Framework (SSDF) version 1.1: every practice's
// tasks. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const nistSsdf: Catalog = {
  id: "nist-ssdf",
  name: "NIST Secure Software Development Framework (SP 800-218)",
  version: "1.1",
  kind: "framework",
  source_url: "https://csrc.nist.gov/pubs/sp/800/218/final",
  controls: [
    ...family("PO", [
      ["PO.1.1", "Identify and document security requirements for the development infrastructure and processes"],
      ["PO.1.2", "Identify and document security requirements for the software being developed"],
      ["PO.1.3", "Communicate security requirements to third parties whose components are used"],
      ["PO.2.1", "Define roles and responsibilities covering every part of the SDLC"],
      ["PO.2.2", "Provide role-based secure development training"],
      ["PO.2.3", "Obtain management commitment to secure development"],
      ["PO.3.1", "Choose the tools each toolchain needs to mitigate risks"],
      ["PO.3.2", "Deploy, operate and maintain the toolchains securely"],
      ["PO.3.3", "Configure tools to produce evidence of secure development practices"],
      ["PO.4.1", "Define criteria for software security checks across the SDLC"],
      ["PO.4.2", "Gather and safeguard the information needed to enforce those criteria"],
      ["PO.5.1", "Separate and protect each environment used in development"],
      ["PO.5.2", "Secure and harden development endpoints"],
    ]),
    ...family("PS", [
      ["PS.1.1", "Store all code and configuration so that only authorized access and changes are possible"],
      ["PS.2.1", "Give consumers a way to verify the integrity of released software"],
      ["PS.3.1", "Archive and protect every software release"],
      ["PS.3.2", "Collect and share provenance data for every release's components"],
    ]),
    ...family("PW", [
      ["PW.1.1", "Use risk modeling to assess the software's security risk"],
      ["PW.1.2", "Track and maintain the software's security requirements, risks and design decisions"],
      ["PW.1.3", "Prefer well-secured, built-in security features over custom ones"],
      ["PW.2.1", "Review the software design against its security requirements and risks"],
      ["PW.4.1", "Acquire and maintain well-secured components for reuse"],
      ["PW.4.2", "Create and maintain well-secured in-house components where no suitable ones exist"],
      ["PW.4.4", "Verify that acquired third-party components meet the security requirements over their life"],
      ["PW.5.1", "Follow secure coding practices suited to the languages and environment"],
      ["PW.6.1", "Use compiler, interpreter and build tools that offer security features"],
      ["PW.6.2", "Decide which security features of those tools to use and configure them"],
      ["PW.7.1", "Decide whether and how to review or analyze human-readable code"],
      ["PW.7.2", "Review and/or analyze code for vulnerabilities and record and triage the findings"],
      ["PW.8.1", "Decide whether and how to test executable code"],
      ["PW.8.2", "Test executable code for vulnerabilities and record and triage the findings"],
      ["PW.9.1", "Define a secure baseline for the software's default configuration"],
      ["PW.9.2", "Implement the default settings and document them for administrators"],
    ]),
    ...family("RV", [
      ["RV.1.1", "Gather information about potential vulnerabilities in the software and its components"],
      ["RV.1.2", "Review, analyze and test the code to find vulnerabilities not yet known"],
      ["RV.1.3", "Have a policy and process for vulnerability disclosure and remediation"],
      ["RV.2.1", "Analyze each vulnerability to plan its remediation"],
      ["RV.2.2", "Plan and implement risk responses for vulnerabilities"],
      ["RV.3.1", "Find the root cause of each vulnerability"],
      ["RV.3.2", "Analyze root causes over time to find patterns"],
      ["RV.3.3", "Review the software proactively for similar vulnerabilities and fix them"],
      ["RV.3.4", "Improve the SDLC process to prevent recurrence"],
    ]),
  ],
};
