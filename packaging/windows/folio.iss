; Inno Setup 6 script: a per-user (or, if chosen, per-machine) installer for the Folio bundle.
; Build the bundle first (from the repository root):
;     python -m PyInstaller --noconfirm --clean --distpath dist --workpath build\pyinstaller packaging\folio.spec
; then:  iscc /DAppVersion=0.1.0 packaging\windows\folio.iss   ->  dist\folio-0.1.0-setup.exe
; Paths below are relative to this file. No network is needed to install or to run: the models and
; the sample document are inside the bundle. User data goes to %LOCALAPPDATA%\Folio, never {app}.

#define AppName "Folio"
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#ifndef BundleDir
  #define BundleDir "..\..\dist\folio"
#endif

[Setup]
AppId={{6D0F3C2B-8E5A-4B7C-9A1D-2F4E6B8C0A13}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=The Folio project
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Install without administrator rights by default; the user may choose "for all users".
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=folio-{#AppVersion}-setup
SetupIconFile=..\..\resources\folio.ico
UninstallDisplayIcon={app}\folio.exe
UninstallDisplayName={#AppName}
; Fast compression: the payload is mostly model weights and native libraries that compress little.
Compression=lzma2/fast
SolidCompression=no
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\folio.exe"; IconFilename: "{app}\folio.exe"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\folio.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\folio.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Only files the app itself may have left in its folder (it writes none there by design).
Type: filesandordirs; Name: "{app}\_internal\__pycache__"
