; Registers the vibeeval:// scheme for links from the browser (sign-in callback, password recovery) at install
; time, and removes it on uninstall. SHCTX is the current user's or the machine's hive, as the install is.
!macro customInstall
  WriteRegStr SHCTX "Software\Classes\vibeeval" "" "URL:vibeeval link"
  WriteRegStr SHCTX "Software\Classes\vibeeval" "URL Protocol" ""
  WriteRegStr SHCTX "Software\Classes\vibeeval\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\vibeeval\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHCTX "Software\Classes\vibeeval"
!macroend
