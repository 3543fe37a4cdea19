//go:build tools

// The NetworkPolicy agent of the test cluster (deploy/kube/tools.sh builds it, deploy/kube/cluster.sh
// runs it): the Kubernetes SIG's kube-network-policies at the version go.mod pins, its module hash
// pinned in go.sum (sum.golang.org does not know it).
package networkpolicies

import _ "sigs.k8s.io/kube-network-policies/cmd"
