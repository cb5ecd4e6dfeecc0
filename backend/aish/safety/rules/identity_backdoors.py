"""Effect: a way back in through an identity provider: a second credential added to an application, a service
principal or another user, or a directory's administrator role given.

An intruder who holds a tenant for a moment leaves what outlives a password reset: a key or a secret added to an
application or a service principal that already exists (it signs in as the application, with its permissions,
and nobody's password changes it), a console password or an access key made for another user, a directory role
(every Entra ID directory role administers part of the tenant), or the domain controllers' restore administrator's
password set.  Read in each vendor's words:

- Entra ID / Azure AD, Az and Microsoft Graph PowerShell: ``New-AzureADApplicationKeyCredential``,
  ``New-AzureADServicePrincipalPasswordCredential``, ``New-AzADAppCredential``, ``New-AzADSpCredential``,
  ``Add-MgApplicationPassword``, ``Add-MgServicePrincipalKey``, ``New-MsolServicePrincipalCredential``;
  ``Add-AzureADDirectoryRoleMember``, ``New-AzureADMSRoleAssignment``, ``New-MgDirectoryRoleMemberByRef``,
  ``New-MgRoleManagementDirectoryRoleAssignment``, ``Add-MsolRoleMember``; an application permission or a consent
  grant (``New-AzureADServiceAppRoleAssignment``, ``New-MgServicePrincipalAppRoleAssignment``,
  ``New-MgOauth2PermissionGrant``);
- the CLIs: ``az ad app|sp credential reset --append`` (a secret beside the ones in use), ``aws iam
  create-access-key|create-login-profile|create-service-specific-credential --user-name X``;
- ``ntdsutil "set dsrm password" …`` (the restore administrator of every domain controller);
- rights given on AdminSDHolder by any ACL writer (``Add-DomainObjectAcl -TargetIdentity …AdminSDHolder… -Rights
  All``, ``dsacls "CN=AdminSDHolder,…" /G eve:GA``): every protected administrator account copies them hourly.

Medium.  Quiet: reads and listings (``Get-AzureADApplicationKeyCredential``, ``aws iam list-access-keys``), one's
own key (``aws iam create-access-key`` with no user named), a first password the user must change
(``create-login-profile … --password-reset-required``), a service's first key (``ibmcloud iam
service-api-key-create``), credentials removed (``accounts_off`` reads those), a named person given another's
mailbox (``Add-MailboxPermission … FullAccess``: delegation, decided quiet in ``test_write_mechanisms``).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx

_CREDENTIAL_CMDLETS = frozenset(name.lower() for name in """
New-AzureADApplicationKeyCredential New-AzureADApplicationPasswordCredential New-AzureADServicePrincipalKeyCredential
New-AzureADServicePrincipalPasswordCredential New-AzureADMSApplicationKey New-AzureADMSApplicationPassword
New-AzureADMSServicePrincipalPassword New-AzADAppCredential New-AzADSpCredential New-AzADApplicationCredential
New-AzADServicePrincipalCredential Add-MgApplicationPassword Add-MgApplicationKey Add-MgServicePrincipalPassword
Add-MgServicePrincipalKey New-MsolServicePrincipalCredential""".split())
_ROLE_CMDLETS = frozenset(name.lower() for name in """
Add-AzureADDirectoryRoleMember New-AzureADMSRoleAssignment Open-AzureADMSPrivilegedRoleAssignmentRequest
New-MgDirectoryRoleMemberByRef New-MgRoleManagementDirectoryRoleAssignment
New-MgRoleManagementDirectoryRoleAssignmentScheduleRequest Add-MsolRoleMember""".split())
_APP_PERMISSION_CMDLETS = frozenset(name.lower() for name in """
New-AzureADServiceAppRoleAssignment New-MgServicePrincipalAppRoleAssignment New-MgServicePrincipalAppRoleAssignedTo
New-AzureADOAuth2PermissionGrant New-MgOauth2PermissionGrant""".split())
# What writes an Active Directory object's ACL (dsacls only with /G: alone it prints the ACL).
_ACL_WRITERS = frozenset({"add-domainobjectacl", "add-objectacl", "dsacls", "set-acl", "add-adpermission"})
_AWS_CREDENTIALS = frozenset({"create-access-key", "create-login-profile", "create-service-specific-credential",
                              "upload-ssh-public-key", "upload-signing-certificate"})


def rule_identity_backdoor(c: Ctx) -> Optional[tuple]:
    """A credential added to an identity that already exists, or a directory role given (see the module's doc)."""
    prog = c.prog.lower()
    if prog in _CREDENTIAL_CMDLETS:
        return MEDIUM, f"{c.prog} adds a credential to an existing application or service principal: whoever " \
                       f"holds it signs in as it, whatever passwords change ({c.text})"
    if prog in _ROLE_CMDLETS:
        return MEDIUM, f"{c.prog} gives a directory role: the member administers part of the tenant ({c.text})"
    if prog in _APP_PERMISSION_CMDLETS:
        return MEDIUM, f"{c.prog} gives an application a permission over the tenant's data, with no user signed " \
                       f"in ({c.text})"
    if prog == "az" and "--append" in c.lowered:
        lowered = c.lowered.split()
        if lowered[:1] == ["ad"] and "credential" in lowered and "reset" in lowered:
            return MEDIUM, f"adds a secret beside the ones in use: whoever holds it signs in as the application " \
                           f"({c.text})"
    if prog == "aws" and "--user-name" in c.lowered:
        lowered = c.lowered.split()
        if lowered[:1] == ["iam"] and len(lowered) > 1 and lowered[1] in _AWS_CREDENTIALS and \
                "--password-reset-required" not in lowered:  # onboarding: the user sets their own at first sign-in
            return MEDIUM, f"makes another user a credential of its own ({lowered[1]}): whoever holds it signs in " \
                           f"as that user ({c.text})"
    if prog in _ACL_WRITERS and "adminsdholder" in c.lowered and (prog != "dsacls" or "/g" in c.lowered.split()):
        return MEDIUM, f"{c.prog} gives rights on AdminSDHolder: every administrator account takes them on within " \
                       f"the hour, and keeps them ({c.text})"
    if prog in ("ntdsutil", "ntdsutil.exe") and "set dsrm password" in c.lowered:
        return MEDIUM, "sets the restore administrator's password of the domain controllers: a way in to each of " \
                       f"them offline ({c.text})"
    return None


RULES: dict = {p: [rule_identity_backdoor] for p in _CREDENTIAL_CMDLETS | _ROLE_CMDLETS | _APP_PERMISSION_CMDLETS |
               _ACL_WRITERS | {"ntdsutil"}}
RULES["az"] = [rule_identity_backdoor]
RULES["aws"] = [rule_identity_backdoor]
